#!/usr/bin/env python3
"""tests/install/linkage.py HON static|dynamic: the `hon` program is linked as the build said.

The build links `hon` statically, the C library included, where it can (option static_program,
repl/meson.build; docs/spec/bench.md §9): such a program has no program interpreter (PT_INTERP,
the dynamic loader) and no dynamic section (PT_DYNAMIC, the shared libraries it needs), so a
start maps no library. This reads the ELF program headers of HON (64-bit little-endian, the
only kind the project builds) and checks both are absent when the build says `static` and
present when it says `dynamic` (a sanitizer build, or static libraries missing). Exit 0 when
they agree, 1 with a message when not.
"""
import struct
import sys

PT_DYNAMIC, PT_INTERP = 2, 3


def segment_types(path):
    """The p_type of every program header of the ELF file PATH."""
    with open(path, "rb") as f:
        head = f.read(64)
        if head[:4] != b"\x7fELF" or head[4] != 2 or head[5] != 1:
            raise ValueError(f"{path}: not a 64-bit little-endian ELF file")
        phoff, = struct.unpack_from("<Q", head, 32)
        phentsize, phnum = struct.unpack_from("<HH", head, 54)
        f.seek(phoff)
        table = f.read(phentsize * phnum)
    return [struct.unpack_from("<I", table, i * phentsize)[0] for i in range(phnum)]


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in ("static", "dynamic"):
        print("usage: linkage.py HON static|dynamic", file=sys.stderr)
        return 2
    path, said = sys.argv[1], sys.argv[2]
    types = segment_types(path)
    has = {name: t in types for name, t in (("PT_INTERP", PT_INTERP), ("PT_DYNAMIC", PT_DYNAMIC))}
    want = said == "dynamic"
    wrong = [name for name, present in has.items() if present != want]
    if wrong:
        print(f"{path}: the build says {said}, but " +
              ", ".join(f"{n} is {'present' if has[n] else 'absent'}" for n in wrong))
        return 1
    print(f"{path}: {said}, as the build says ({', '.join(has)} {'present' if want else 'absent'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
