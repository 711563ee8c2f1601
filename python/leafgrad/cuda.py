"""`torch.cuda`: this build has no CUDA backend (it arrives with the CUDA issue)."""


def is_available():
    return False


def device_count():
    return 0
