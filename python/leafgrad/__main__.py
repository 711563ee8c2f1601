"""`python -m leafgrad run script.py [args]`: see leafgrad._runner."""
import sys

from leafgrad._runner import main

if __name__ == "__main__":
    sys.exit(main())
