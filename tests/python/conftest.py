"""pytest configuration for the leafgrad API suite.

LEAFGRAD_TEST_TORCH=1 runs the whole suite against real PyTorch (validation of the
expectations themselves): `support` aliases `leafgrad`, `leafgrad.nn`, ... to torch before
any test module is imported. Tests of leafgrad-only API skip in that mode.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import support


def pytest_report_header(config):
    if support.USING_TORCH:
        import torch

        return f"leafgrad tests running against real torch {torch.__version__} (LEAFGRAD_TEST_TORCH=1)"
    return None

