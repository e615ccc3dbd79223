"""The second layer of ``kg serve``'s guard: a query worker that cannot reach the network at all.

The guard (``kg.sparql.lexer``, ``kg.sparql.guard``) refuses SERVICE and LOAD before anything runs;
should a query get past it, the worker process still cannot connect anywhere:

- a network namespace of its own (``unshare``: only a loopback of its own, nothing listens there),
  where the kernel allows it;
- and a seccomp filter: ``socket()`` for IPv4 and IPv6 fails with EACCES in the worker (Linux on
  x86-64 and arm64), also where ``unshare`` is refused, as in many containers.

``KG_SERVE_SANDBOX`` set to ``off`` leaves the worker on the network (tests of the guard alone),
``seccomp`` applies the filter without the namespace (tests of the filter). ``kg query
--allow-service`` starts a worker without either.

``limit_memory`` bounds what a query may allocate in the worker (``--max-memory``).
"""
from __future__ import annotations

import os
import platform
import sys

__all__ = ["SANDBOX_ENV", "limit_memory", "sandbox"]

#: ``off``: no isolation (tests only); ``seccomp``: the filter alone.
SANDBOX_ENV = "KG_SERVE_SANDBOX"

# seccomp and BPF constants (linux/seccomp.h, linux/filter.h, linux/audit.h)
_PR_SET_NO_NEW_PRIVS, _PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 38, 22, 2
_RET_ALLOW, _RET_ERRNO, _EACCES = 0x7FFF0000, 0x00050000, 13
_LD_W_ABS, _JEQ_K, _RET_K = 0x20, 0x15, 0x06
#: machine -> (AUDIT_ARCH_*, the number of the socket system call)
_ARCHES = {"x86_64": (0xC000003E, 41), "amd64": (0xC000003E, 41), "aarch64": (0xC00000B7, 198),
           "arm64": (0xC00000B7, 198)}
_AF_INET, _AF_INET6 = 2, 10


def sandbox() -> str:
    """Isolate this process from the network as far as the system allows, before it starts any
    thread (a seccomp filter is inherited by the threads started after it); no core dumps. The
    layers that hold, joined by "+" ("netns+seccomp"), or "" if none does."""
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    except (ImportError, ValueError, OSError):
        pass
    mode = os.environ.get(SANDBOX_ENV, "")
    if not sys.platform.startswith("linux") or mode == "off":
        return ""
    layers = []
    if mode != "seccomp" and _unshare_network():
        layers.append("netns")
    if _deny_inet_sockets():
        layers.append("seccomp")
    return "+".join(layers)


def _unshare_network() -> bool:
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        clone_newuser, clone_newnet = 0x10000000, 0x40000000
        if libc.unshare(clone_newuser | clone_newnet) == 0:
            return True
        return bool(libc.unshare(clone_newnet) == 0)  # root without user namespaces
    except (OSError, AttributeError):
        return False


def _deny_inet_sockets() -> bool:
    """Install a seccomp filter under which ``socket(AF_INET or AF_INET6, ...)`` fails with EACCES
    (other system calls, and other socket families such as the pipes' Unix ones, are untouched)."""
    arch = _ARCHES.get(platform.machine().lower())
    if arch is None:
        return False
    try:
        import ctypes

        class Filter(ctypes.Structure):
            _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte),
                        ("k", ctypes.c_uint32)]

        class Program(ctypes.Structure):
            _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(Filter))]

        audit_arch, nr_socket = arch
        deny = _RET_ERRNO | _EACCES
        code = [
            (_LD_W_ABS, 0, 0, 4),  # seccomp_data.arch
            (_JEQ_K, 1, 0, audit_arch),
            (_RET_K, 0, 0, _RET_ALLOW),  # another ABI: left alone
            (_LD_W_ABS, 0, 0, 0),  # seccomp_data.nr
            (_JEQ_K, 1, 0, nr_socket),
            (_RET_K, 0, 0, _RET_ALLOW),
            (_LD_W_ABS, 0, 0, 16),  # seccomp_data.args[0] (low half): the address family
            (_JEQ_K, 2, 0, _AF_INET),
            (_JEQ_K, 1, 0, _AF_INET6),
            (_RET_K, 0, 0, _RET_ALLOW),
            (_RET_K, 0, 0, deny),
        ]
        filters = (Filter * len(code))(*[Filter(*c) for c in code])
        program = Program(len(code), filters)
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            return False
        return bool(libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(program), 0, 0) == 0)
    except (OSError, AttributeError, ValueError):
        return False


def _vm(field: str) -> int | None:
    """A ``Vm*`` line of /proc/self/status in bytes (Linux), or None."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def limit_memory(megabytes: int) -> bool:
    """Let this process take at most ``megabytes`` MB more memory than it holds now: its data limit
    (``RLIMIT_DATA``: heap and private mappings, what a query allocates) set to what it uses now plus
    that, or its address space (``RLIMIT_AS``) where the data limit cannot be set. Past it an
    allocation fails: Python raises MemoryError, pyoxigraph aborts the process. Whether a limit holds
    (it needs Linux's /proc to know what the process uses now)."""
    try:
        import resource
    except ImportError:
        return False
    extra = megabytes * 1024 * 1024
    for name, field in (("RLIMIT_DATA", "VmData"), ("RLIMIT_AS", "VmSize")):
        which = getattr(resource, name, None)
        now = _vm(field)
        if which is None or now is None:
            continue
        try:
            _soft, hard = resource.getrlimit(which)
            value = now + extra if hard == resource.RLIM_INFINITY else min(now + extra, hard)
            resource.setrlimit(which, (value, hard))
            return True
        except (ValueError, OSError):
            continue
    return False
