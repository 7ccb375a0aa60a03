#!/usr/bin/env python3
"""tests/install/run.py — `meson install` into a DESTDIR and the installed hon used as a person
and a C programmer would (issue 12 §1; docs/spec/architecture.md, "Installing"):

    run.py --meson M --build-root B --source-root S --prefix P --bindir D ... --cc CC [FLAG]...

The options (given by tests/install/meson.build) name meson, the build and source trees, the
configured prefix and directories, the build tree's hon, embed.c, and last the C compiler with
the sanitizer flags of the build. The installed tree sits under DESTDIR/PREFIX, not where it was
configured, so the installed hon is told its data directory with $HON_DATADIR
(hon_data_dir in include/hon.h), and pkg-config finds hon.pc under the DESTDIR with
PKG_CONFIG_SYSROOT_DIR prefixing its -I and -L paths.

The expected answers are not written here: the installed hon and the C program must answer
exactly as the build tree's hon does on the same board, which the other suites test. The
installed libhon.a and libhon.so must define hon.h's functions and no other global symbol.
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

def options():
    ap = argparse.ArgumentParser()
    for name in ("meson", "build-root", "source-root", "prefix", "bindir", "libdir",
                 "includedir", "datadir", "mandir", "hon", "embed"):
        ap.add_argument("--" + name, required=True)
    ap.add_argument("--cc", nargs=argparse.REMAINDER, required=True)
    cfg = vars(ap.parse_args())
    cfg["meson"] = [cfg["meson"]]
    cfg["hon"] = os.path.abspath(cfg["hon"])
    return cfg


CFG = options()
failures = []


def check(cond, what, detail=""):
    if not cond:
        failures.append(f"{what}\n{detail}")


def run(cmd, env=None, cwd=None):
    e = dict(os.environ)
    # meson test points LD_LIBRARY_PATH at the build tree's libhon: the installed one is tested
    for k in ("HON_RULES", "HON_DATADIR", "PKG_CONFIG_PATH", "PKG_CONFIG_SYSROOT_DIR",
              "LD_LIBRARY_PATH"):
        e.pop(k, None)
    e.update(env or {})
    p = subprocess.run(cmd, capture_output=True, text=True, env=e, cwd=cwd, timeout=600)
    p.shown = f"$ {shlex.join(cmd)}\nexit {p.returncode}\nstdout:\n{p.stdout}\nstderr:\n{p.stderr}"
    return p


def staged(destdir, d):
    """The installed directory d (absolute, or relative to the prefix) under destdir."""
    return destdir + os.path.join(CFG["prefix"], d)


def main():
    with tempfile.TemporaryDirectory(prefix="hon-install-") as tmp:
        destdir = os.path.join(tmp, "stage")
        p = run(CFG["meson"] + ["install", "-C", CFG["build_root"], "--no-rebuild", "--quiet",
                                "--destdir", destdir])
        if p.returncode != 0:
            failures.append("meson install failed\n" + p.shown)
            return
        bindir, libdir = staged(destdir, CFG["bindir"]), staged(destdir, CFG["libdir"])
        datadir = staged(destdir, CFG["datadir"])
        data = os.path.join(datadir, "hon")
        hon = os.path.join(bindir, "hon")

        # Everything is in place: the program, both libraries, the header, the .pc file, the
        # manual pages, the completion, the data (rules, expansions, example boards) and the
        # editor files.
        for path in [hon, os.path.join(libdir, "libhon.so"), os.path.join(libdir, "libhon.a"),
                     os.path.join(staged(destdir, CFG["includedir"]), "hon.h"),
                     os.path.join(libdir, "pkgconfig", "hon.pc"),
                     os.path.join(staged(destdir, CFG["mandir"]), "man1", "hon.1"),
                     os.path.join(staged(destdir, CFG["mandir"]), "man5", "hon.5"),
                     os.path.join(datadir, "bash-completion", "completions", "hon"),
                     os.path.join(data, "rules", "core.hon"),
                     os.path.join(data, "expansions"),
                     os.path.join(data, "examples", "boards", "hill_contour.scn"),
                     os.path.join(data, "editors", "vscode", "package.json"),
                     os.path.join(datadir, "vim", "vimfiles", "syntax", "hon.vim"),
                     os.path.join(datadir, "vim", "vimfiles", "ftdetect", "hon.vim")]:
            check(os.path.exists(path), f"meson install did not put {path} in place")

        # The installed hon never uses the build tree, though it exists: its data directory is
        # the configured one, and with $HON_DATADIR the staged one.
        # --version says it is installed, under the configured prefix, not in a build tree.
        # Staged (DESTDIR), the configured data directory is not there on this machine
        # (normally): --version says so after it (rev12c 9).
        configured = os.path.join(CFG["prefix"], CFG["datadir"], "hon")
        missing = "" if os.path.isdir(configured) else \
            " (no such directory: the bundled rules and boards cannot be read)"
        p = run([hon, "--version"])
        check(p.returncode == 0 and p.stdout.splitlines()[1:] ==
              [f"installed under {CFG['prefix']}", f"data: {configured}{missing}",
               f"rules: {configured}/rules {configured}/expansions"],
              "the installed hon --version names the prefix and the configured data directory",
              p.shown)
        env = {"HON_DATADIR": data}
        p = run([hon, "version"], env=env)
        check(p.returncode == 0 and p.stdout.splitlines()[2:] ==
              [f"data: {data} (from $HON_DATADIR)", f"rules: {data}/rules {data}/expansions"],
              "with $HON_DATADIR, hon version names it", p.shown)

        # The libraries define hon.h's functions and nothing else: every other global symbol of
        # the four layers (scene_free, val_equal, yyparse...) is local to libhon, so that it
        # cannot clash with a name of the program linking it. The functions are read from
        # hon.h's prototypes (a name `hon_x` followed at once by `(`).
        header = open(os.path.join(staged(destdir, CFG["includedir"]), "hon.h")).read()
        declared = set(re.findall(r"\b(hon_\w+)\(", header))
        check(len(declared) > 50, "hon.h's functions were read", "")
        for lib, nm in (("libhon.a", ["nm", "-g", "--defined-only"]),
                        ("libhon.so", ["nm", "-D", "--defined-only"])):
            p = run(nm + [os.path.join(libdir, lib)])
            exported = {l.split()[-1].split("@")[0] for l in p.stdout.splitlines()
                        if len(l.split()) == 3}
            check(p.returncode == 0 and exported == declared,
                  f"{lib} defines exactly hon.h's functions: "
                  f"{len(exported - declared)} others, e.g. {sorted(exported - declared)[:8]}; "
                  f"{len(declared - exported)} missing, e.g. {sorted(declared - exported)[:8]}",
                  p.shown[:2000])

        # The README's commands: `--board examples/boards/...` from a directory holding no
        # examples/ (the board is found in the data directory), answering as the build tree's
        # hon does from the source tree.
        board = ["--board", "examples/boards/hill_contour.scn"]
        for args in (["los", "$rifle2", "$pak"], ["why", "los", "$sherman", "$obs"],
                     ["draw"]):
            inst = run([hon] + board + args, env=env, cwd=tmp)
            built = run([CFG["hon"]] + board + args, cwd=CFG["source_root"])
            check(built.returncode == 0 and built.stdout, "the build tree's hon answers",
                  built.shown)
            check(inst.returncode == 0 and inst.stdout == built.stdout,
                  "the installed hon answers as the build tree's", inst.shown + built.shown)

        # A C program built with pkg-config against the staged hon.pc, linked with the shared
        # libhon, then with the static one; each answers as `hon eval` does.
        pc = {"PKG_CONFIG_PATH": os.path.join(libdir, "pkgconfig"),
              "PKG_CONFIG_SYSROOT_DIR": destdir}
        flags = run(["pkg-config", "--cflags", "--libs", "hon"], env=pc)
        static = run(["pkg-config", "--static", "--cflags", "--libs", "hon"], env=pc)
        if flags.returncode != 0 or static.returncode != 0:
            failures.append("pkg-config hon failed\n" + flags.shown + static.shown)
            return
        check(f"-I{staged(destdir, CFG['includedir'])}" in flags.stdout.split()
              and f"-L{libdir}" in flags.stdout.split() and "-lhon" in flags.stdout.split(),
              "pkg-config gives the staged include and library directories and -lhon",
              flags.shown)
        exprs = ["line_of_sight($rifle2, $pak)", "line_of_sight($sherman, $obs)",
                 "solitaire_air[clear].ground_support"]
        want = run([CFG["hon"]] + board + ["eval"] + exprs, cwd=CFG["source_root"])
        # the static link: libhon.a named by its path in place of -lhon, then what
        # `pkg-config --static` adds for it (libm)
        static_libs = [os.path.join(libdir, "libhon.a") if w == "-lhon" else w
                       for w in static.stdout.split()]
        for name, libs, runenv in (("shared", flags.stdout.split(), {"LD_LIBRARY_PATH": libdir}),
                                   ("static", static_libs, {})):
            exe = os.path.join(tmp, "embed_" + name)
            cc = run(CFG["cc"] + [CFG["embed"], "-o", exe] + libs)
            if cc.returncode != 0:
                failures.append(f"the {name} C program did not build\n" + cc.shown)
                continue
            p = run([exe] + exprs, env={**env, **runenv}, cwd=tmp)
            check(p.returncode == 0 and p.stdout == f"data: {data}\n" + want.stdout,
                  f"the {name} C program answers as hon eval", p.shown + want.shown)

        # The manual page and the completion name every command and option of `hon --help`.
        usage = run([CFG["hon"], "--help"]).stdout
        commands = re.findall(r"^  ([a-z]+) ", usage.split("Commands:")[1].split("\n\n")[0], re.M)
        options = re.findall(r"^  (?:-\w, )?(--[a-z-]+)", usage.split("\nOptions")[1].split(":\n", 1)[1], re.M)
        man = open(os.path.join(staged(destdir, CFG["mandir"]), "man1", "hon.1")).read()
        bash = open(os.path.join(datadir, "bash-completion", "completions", "hon")).read()
        check(len(commands) >= 18 and len(options) >= 15, "the usage's lists were read", usage)
        for word in commands + options:
            check(word.replace("-", "\\-") in man, f"hon.1 does not name {word}")
            check(re.search(r"(^|\s|\")" + re.escape(word) + r"(\s|$|\)|\")", bash, re.M),
                  f"the bash completion does not offer {word}")

        # The installed completion run by bash (when bash-completion is installed) in a
        # directory holding x.hon, a directory sub and a hidden directory .hid: a file word
        # offers x.hon and sub, not .hid (a checkout's .git and .ci hold no rules), unless it
        # starts with '.'; --edition offers the bundled editions (the installed hon asked,
        # rules/editions.hon: bloody_omaha, harbor_hills, all_books... ; `har` only
        # harbor_hills), --variant a variant's name with its '=' (stress_condition, BRO 1.1),
        # and diff's settings the editions (issue 12, fresh review: nothing was offered).
        # After `--variant NAME=`, NAME's readings.
        lib = "/usr/share/bash-completion/bash_completion"
        if os.path.exists(lib) and shutil.which("bash"):
            work = os.path.join(tmp, "completion")
            os.makedirs(os.path.join(work, ".hid"))
            os.makedirs(os.path.join(work, "sub"))
            open(os.path.join(work, "x.hon"), "w").close()
            script = (f"source {lib}\nsource {shlex.quote(os.path.join(datadir, 'bash-completion', 'completions', 'hon'))}\n"
                      "t() { COMP_WORDS=(\"$@\"); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); "
                      "COMP_LINE=\"$*\"; COMP_POINT=${#COMP_LINE}; COMPREPLY=(); _hon; "
                      "printf '%s|' \"${COMPREPLY[@]}\"; echo; }\n"
                      # the line as typed, then the words bash makes of it (at a '=' it splits)
                      "tl() { COMP_LINE=\"$1\"; COMP_POINT=${#COMP_LINE}; shift; "
                      "COMP_WORDS=(\"$@\"); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); COMPREPLY=(); "
                      "_hon; printf '%s|' \"${COMPREPLY[@]}\"; echo; }\n")
            asks = [["lint", ""], ["lint", "."], ["fmt", ""], ["--edition", ""],
                    ["--edition", "har"], ["--variant", "stress_c"],
                    ["diff", "bloody_omaha", "har"],
                    ["--variant", "derail_threshold", "=", ""],
                    ["--variant", "derail_threshold", "=", "hi"]]
            script += "".join("t hon " + " ".join(shlex.quote(w) for w in a) + "\n" for a in asks)
            # what interactive bash 5.2 hands over for `hon --variant derail_threshold=<Tab>`:
            # the words end at the '=' itself, no empty word after it (rev12d 3)
            script += "tl 'hon --variant derail_threshold=' hon --variant derail_threshold =\n"
            asks.append(["(as typed) --variant derail_threshold="])
            p = run(["bash", "-c", script], env={"HON_DATADIR": data,
                                                 "PATH": bindir + os.pathsep + os.environ["PATH"]},
                    cwd=work)
            got = [set(l.split("|")[:-1]) for l in p.stdout.splitlines()]
            check(len(got) == len(asks), "bash ran the completion", p.shown)
            if len(got) == len(asks):
                check(got[0] == {"x.hon", "sub"} and got[2] == {"x.hon", "sub"},
                      "a file word offers x.hon and sub, not the hidden .hid", p.shown)
                check(".hid" in got[1], "a word starting with '.' offers .hid", p.shown)
                check({"bloody_omaha", "harbor_hills", "all_books"} <= got[3],
                      "--edition offers the bundled editions", p.shown)
                check(got[4] == {"harbor_hills"} and got[6] == {"harbor_hills"},
                      "--edition har and diff's setting har complete to harbor_hills", p.shown)
                check(got[5] == {"stress_condition="}, "--variant offers a name and '='",
                      p.shown)
                # after `--variant NAME=` (bash splits the word at '='), NAME's readings: the
                # bundled derail_threshold's two (ERR.derail-threshold), `hi` only one (rev12c 9)
                check(got[7] == {"four_or_more", "higher_than_four"} and
                      got[8] == {"higher_than_four"}, "--variant NAME= offers its readings",
                      p.shown)
                check(got[9] == {"four_or_more", "higher_than_four"},
                      "--variant NAME= with the cursor on the '=' offers them too", p.shown)


main()
if failures:
    print("\n\n".join(failures))
    sys.exit(1)
print("install: ok")
