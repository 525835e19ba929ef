"""ember.cuda.core: cuda.core's spellings of the runtime (Device, Program,
LaunchConfig, launch, Stream, Event, Buffer, memory resources, system),
thin Python over ember's own Device, Stream, Event, memory and RawModule.
``ember.cuda.core.experimental`` holds the same names for programs written
against cuda.core's older path. Everything runs on the cpu device too,
where Device(0) is the cpu when no GPU exists."""
from ._device import Device, DeviceProperties
from ._stream import Stream, StreamOptions, Event, EventOptions
from ._memory import (Buffer, MemoryResource, DeviceMemoryResource,
                      LegacyPinnedMemoryResource)
from ._program import Program, ProgramOptions, ObjectCode, Kernel
from ._launch import LaunchConfig, launch
from ._graph import GraphBuilder, Graph
from .system import system, System

__all__ = ["Device", "DeviceProperties", "Stream", "StreamOptions", "Event",
           "EventOptions", "Buffer", "MemoryResource", "DeviceMemoryResource",
           "LegacyPinnedMemoryResource", "Program", "ProgramOptions",
           "ObjectCode", "Kernel", "LaunchConfig", "launch", "GraphBuilder",
           "Graph", "system", "System"]
