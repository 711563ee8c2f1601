"""`torch.autograd.profiler`: the profiler of `torch.profiler` under its older names
(`profile`, `record_function`, `EventList`, `FunctionEvent`); see `leafgrad.profiler`."""
from ..profiler import (  # noqa: F401
    DeviceType,
    EventList,
    FunctionEvent,
    FunctionEventAvg,
    ProfilerActivity,
    kineto_available,
    record_function,
)
from ..profiler import _AutogradProfile as profile  # noqa: F401

__all__ = ["profile", "record_function", "EventList", "FunctionEvent", "FunctionEventAvg", "ProfilerActivity",
           "DeviceType", "kineto_available"]
