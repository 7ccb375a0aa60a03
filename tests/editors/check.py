#!/usr/bin/env python3
"""tests/editors/check.py — the editor files of editors/ (docs/editors.md) kept true to the
languages they colour (TAP output):

1. every JSON file of the VS Code extension parses, and the files package.json names exist;
2. the keywords of the .hon TextMate grammar and of the Vim syntax are the lexer's keywords
   (dsl/grammar/lexer.l's table), each once: a keyword added to the language and forgotten
   here would be coloured as a name;
3. the words of the .scn grammar and Vim syntax are the quoted words of the scenario grammar
   in docs/spec/board.md, but `x` (the separator of `size W x H`: coloured, it would mark every
   name x);
4. every TextMate pattern compiles as a regular expression (Python's syntax agrees with
   Oniguruma's on what these use).
5. the extension is declarative (package.json names no `main` script: it ships no language
   client), and what hon(1)'s FILES and docs/editors.md say of it agrees: neither may claim a
   client that runs `hon lsp` (the fresh review of issue 12 found hon(1) did).

Usage: check.py SOURCE_ROOT. Exit status 0 when every check passes.
"""
import json
import os
import re
import sys

ROOT = sys.argv[1]
results = []


def ok(cond, name):
    results.append((bool(cond), name))


def read(*parts):
    with open(os.path.join(ROOT, *parts), encoding="utf-8") as f:
        return f.read()


def lexer_keywords():
    return re.findall(r'\{ "([a-z_0-9]+)", TOK_', read("dsl", "grammar", "lexer.l"))


def scenario_words():
    doc = read("docs", "spec", "board.md")
    block = next(b for b in doc.split("```") if "mine_counter = " in b)
    return sorted(set(re.findall(r'"([a-z_]+)"', block)) - {"x"})


def tm_words(grammar):
    """The words of the grammar's keyword alternations `\\b(a|b|c)\\b`, in order."""
    words = []

    def walk(node):
        if isinstance(node, dict):
            m = re.fullmatch(r"\\b\(([a-z_0-9|]+)\)\\b", node.get("match", ""))
            if m:
                words.extend(m.group(1).split("|"))
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(grammar)
    return words


def tm_regexes(node):
    if isinstance(node, dict):
        for k, v in node.items():
            if k in ("match", "begin", "end") and isinstance(v, str):
                yield v
            else:
                yield from tm_regexes(v)
    elif isinstance(node, list):
        for v in node:
            yield from tm_regexes(v)


def vim_words(text):
    words = []
    for line in text.splitlines():
        if line.startswith("syn keyword "):
            words.extend(line.split()[3:])
    return words


def same_words(got, want, name):
    dup = sorted({w for w in got if got.count(w) > 1})
    ok(sorted(set(got)) == sorted(set(want)) and not dup,
       f"{name}: missing {sorted(set(want) - set(got))}, extra {sorted(set(got) - set(want))},"
       f" twice {dup}")


vscode = os.path.join(ROOT, "editors", "vscode")
parsed = {}
for base, _, files in os.walk(vscode):
    for f in sorted(files):
        if f.endswith(".json"):
            path = os.path.join(base, f)
            try:
                with open(path, encoding="utf-8") as fh:
                    parsed[os.path.relpath(path, vscode)] = json.load(fh)
                ok(True, f"{os.path.relpath(path, ROOT)} is JSON")
            except ValueError as e:
                ok(False, f"{os.path.relpath(path, ROOT)} is JSON: {e}")

pkg = parsed.get("package.json", {})
contrib = pkg.get("contributes", {})
named = [g["path"] for g in contrib.get("grammars", [])] + \
    [l["configuration"] for l in contrib.get("languages", [])]
ok(named and all(os.path.isfile(os.path.join(vscode, p)) for p in named),
   f"package.json names files that exist: {named}")
exts = sorted(e for l in contrib.get("languages", []) for e in l.get("extensions", []))
ok(exts == [".hon", ".scn"], f"package.json's languages are .hon and .scn: {exts}")

keywords = lexer_keywords()
ok(len(keywords) > 50, f"the lexer's keyword table was read ({len(keywords)} keywords)")
hon_tm = parsed.get(os.path.join("syntaxes", "hon.tmLanguage.json"), {})
scn_tm = parsed.get(os.path.join("syntaxes", "scn.tmLanguage.json"), {})
same_words(tm_words(hon_tm), keywords, "hon.tmLanguage.json's keywords are the lexer's")
same_words(vim_words(read("editors", "vim", "syntax", "hon.vim")), keywords,
           "syntax/hon.vim's keywords are the lexer's")
words = scenario_words()
ok(len(words) > 20, f"board.md's scenario grammar was read ({len(words)} words)")
same_words(tm_words(scn_tm), words, "scn.tmLanguage.json's words are board.md's grammar's")
same_words(vim_words(read("editors", "vim", "syntax", "scn.vim")), words,
           "syntax/scn.vim's words are board.md's grammar's")

ok("main" not in pkg and "activationEvents" not in pkg,
   "package.json is declarative: no main script, no activation (no language client)")
man_files = read("docs", "man", "hon.1").split(".SH FILES", 1)[-1].split(".SH ", 1)[0]
man_files = re.sub(r"\s+", " ", re.sub(r"^\.\S+ ?", "", man_files, flags=re.M))
ok("ships no language client" in man_files and "language client runs" not in man_files,
   "hon(1) FILES says the VS Code extension ships no language client")
ok("ships none" in re.sub(r"\s+", " ", read("docs", "editors.md")),
   "docs/editors.md says the VS Code extension ships no client")

for name, grammar in (("hon", hon_tm), ("scn", scn_tm)):
    bad = []
    for rx in tm_regexes(grammar):
        try:
            re.compile(rx)
        except re.error as e:
            bad.append(f"{rx}: {e}")
    ok(not bad, f"{name}.tmLanguage.json's patterns compile: {bad}")

print(f"1..{len(results)}")
for i, (passed, name) in enumerate(results, 1):
    print(f"{'ok' if passed else 'not ok'} {i} - {name}")
sys.exit(0 if all(p for p, _ in results) else 1)
