#!/usr/bin/env python3
"""tests/fuzz/seeds.py — builds the seed corpora and dictionaries of the fuzz targets of
tests/fuzz from the project's own files, so that they follow the tree (nothing copied in):

  OUT/rules/      every .hon file of rules/, expansions/, tests/
  OUT/scenario/   every .scn file of examples/ and tests/
  OUT/eval/       the questions of the `expect`s of those .hon files, and the `hon> ` lines of
                  the docs that are expressions, each on an example board (`#N`, `#N odds`)
  OUT/do/         a call of each event the bundled rules declare, with the example boards'
                  units, and the docs' `do` lines
  OUT/repl/       the REPL sessions of tests/repl/run.py (its stdin= texts) and of the docs
  OUT/lsp/        LSP sessions (framed JSON-RPC) opening, editing and asking about each bundled
                  rule file, and a few broken messages
  OUT/NAME.dict   libFuzzer dictionaries: .hon keywords (dsl/grammar/lexer.l's table) and
                  operators, .scn keywords (runtime/scenario*.c), the REPL's command names
                  (repl/repl.c's table), the names the bundled rules declare, the boards' units

Usage: seeds.py SOURCE_ROOT OUT. The fuzz targets' headers say how each reads its input.
"""
import ast
import json
import os
import re
import shutil
import sys

TARGETS = ("rules", "scenario", "eval", "do", "repl", "lsp")
MAX_SEEDS = 400  # per generated corpus (eval, do): enough to cover, few enough to start fast


def files(root, tops, ext):
    for top in tops:
        for base, dirs, names in os.walk(os.path.join(root, top)):
            dirs.sort()
            for n in sorted(names):
                if n.endswith(ext):
                    yield os.path.join(base, n)


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def write(out, target, name, text):
    path = os.path.join(out, target, re.sub(r"[^A-Za-z0-9_.-]", "_", name))
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def dict_entry(word):
    """A libFuzzer dictionary entry: quoted; backslash, quote and non-printing bytes escaped."""
    esc = "".join("\\" + c if c in '\\"' else c if " " <= c <= "~" else "\\x%02X" % ord(c)
                  for c in word)
    return '"' + esc + '"'


def write_dict(out, name, words):
    with open(os.path.join(out, name + ".dict"), "w", encoding="utf-8") as f:
        for w in sorted(set(words)):
            f.write(dict_entry(w) + "\n")


def hon_keywords(root):
    text = read(os.path.join(root, "dsl", "grammar", "lexer.l"))
    return re.findall(r'\{ "([a-z_0-9]+)", TOK_', text)


OPERATORS = ["->", "++", "=>", "==", "!=", "<=", ">=", "{", "}", "(", ")", "[", "]", ";", ":",
             ",", ".", "?", "\"", "#", "$", "@", "\n"]


def scn_keywords(root):
    words = set()
    for path in files(root, ["runtime"], ".c"):
        if os.path.basename(path).startswith("scenario"):
            words.update(re.findall(r'text_tok_is\([^,]+, "([a-z]+)"\)', read(path)))
    return sorted(words) + ["..", "=", "/", ":", "\n"]


def repl_commands(root):
    return re.findall(r'\{ "([a-z]+)",\s*cmd_', read(os.path.join(root, "repl", "repl.c")))


def declared(root, kinds):
    """Names the bundled rules declare with one of the keywords `kinds`."""
    names = []
    pat = re.compile(r"^\s*(?:%s)\s+([a-z_][a-z0-9_]*)" % "|".join(kinds), re.M)
    for path in files(root, ["rules", "expansions"], ".hon"):
        names += pat.findall(read(path))
    return names


def board_units(root):
    """{board path: [unit names]} of the example boards, in name order."""
    out = {}
    for path in sorted(files(root, [os.path.join("examples", "boards")], ".scn")):
        out[path] = re.findall(r"^unit\s+([a-z_][a-z0-9_]*)", read(path), re.M)
    return out


def doc_lines(root):
    """The `hon> ` lines of the docs, grouped per block of consecutive lines."""
    blocks = []
    for path in [os.path.join(root, "README.md")] + list(files(root, ["docs"], ".md")):
        block = []
        for line in read(path).splitlines():
            m = re.match(r"\s*hon> (.*)", line)
            if m:
                block.append(m.group(1))
            elif block:
                blocks.append(block)
                block = []
        if block:
            blocks.append(block)
    return blocks


def repl_stdins(root):
    """The constant stdin= texts of tests/repl/run.py."""
    tree = ast.parse(read(os.path.join(root, "tests", "repl", "run.py")))
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "stdin" and \
                isinstance(node.value, ast.Constant) and isinstance(node.value.value, str) \
                and node.value.value:
            yield node.value.value


def is_command(line, commands):
    word = re.match(r":?\s*([a-z]*)", line).group(1)
    return word in commands


def event_calls(root, units):
    """A call of each event of the bundled rules per example board, its arguments made of the
    board's units and squares where the parameter types allow."""
    sig = re.compile(r"^\s*event\s+([a-z_][a-z0-9_]*)\s*\(([^)]*)\)", re.M)
    examples = {"unit": "$U", "square": "@C4", "int": "1", "list<square>": "[@C4, @C5]",
                "list<unit>": "[$U]", "bool": "true", "marker": "suppressed"}
    calls = []
    for path in files(root, ["rules", "expansions"], ".hon"):
        for name, params in sig.findall(read(path)):
            types = [p.split(":", 1)[1].strip() for p in params.split(",") if ":" in p]
            if all(t in examples for t in types):
                calls.append((name, [examples[t] for t in types]))
    out = []
    for i, (board, us) in enumerate(units.items()):
        for name, args in calls:
            for u in us[:2] or ["u"]:
                out.append(f"#{i}\n{name}({', '.join(a.replace('U', u) for a in args)})\n")
    return out


def lsp_frame(msg):
    body = msg if isinstance(msg, str) else json.dumps(msg)
    return f"Content-Length: {len(body.encode())}\r\n\r\n{body}"


def lsp_session(uri, text):
    """An editor's session about one file: open, ask at a few places, edit, close, leave."""
    lines = text.split("\n")
    at = lambda l: {"textDocument": {"uri": uri},
                    "position": {"line": l, "character": len(lines[l]) // 2 if l < len(lines) else 0}}
    msgs = [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}},
            {"jsonrpc": "2.0", "method": "initialized", "params": {}},
            {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                "uri": uri, "languageId": "hon", "version": 1, "text": text}}}]
    for i, l in enumerate(range(0, len(lines), max(1, len(lines) // 4))):
        for m in ("hover", "definition", "completion"):
            msgs.append({"jsonrpc": "2.0", "id": 10 + 3 * i + len(m), "method": "textDocument/" + m,
                         "params": at(l)})
    msgs += [{"jsonrpc": "2.0", "id": 2, "method": "textDocument/documentSymbol",
              "params": {"textDocument": {"uri": uri}}},
             {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                 "textDocument": {"uri": uri, "version": 2},
                 "contentChanges": [{"text": text[:len(text) // 2]}]}},
             {"jsonrpc": "2.0", "method": "textDocument/didClose",
              "params": {"textDocument": {"uri": uri}}},
             {"jsonrpc": "2.0", "id": 3, "method": "shutdown"},
             {"jsonrpc": "2.0", "method": "exit"}]
    return "".join(lsp_frame(m) for m in msgs)


def main():
    root, out = os.path.abspath(sys.argv[1]), sys.argv[2]
    shutil.rmtree(out, ignore_errors=True)
    for t in TARGETS:
        os.makedirs(os.path.join(out, t))
    rel = lambda p: os.path.relpath(p, root)

    for path in files(root, ["rules", "expansions", "tests"], ".hon"):
        write(out, "rules", rel(path), read(path))
    for path in files(root, ["examples", "tests"], ".scn"):
        write(out, "scenario", rel(path), read(path))

    units = board_units(root)
    nboards = max(len(units), 1)
    commands = set(repl_commands(root))
    questions = []
    for path in files(root, ["rules", "expansions", "tests"], ".hon"):
        questions += re.findall(r"\bexpect\s+(.+?)\s*(?:==|!=|\bfails\b|;|$)", read(path), re.M)
    questions += [l for b in doc_lines(root) for l in b if not is_command(l, commands)]
    seen = []
    for q in questions:
        if q not in seen:
            seen.append(q)
    step = max(1, len(seen) // MAX_SEEDS)
    boards = list(units.values()) or [[]]
    for i, q in enumerate(seen[::step][:MAX_SEEDS]):
        odds = " odds" if "roll" in q or "d6" in q else ""
        us = boards[i % nboards]
        if us:  # the tests' units become the board's, in turn
            k = iter(range(1 << 30))
            q = re.sub(r"\$[a-z_][a-z0-9_]*", lambda m: "$" + us[next(k) % len(us)], q)
        write(out, "eval", f"q{i:04d}", f"#{i % nboards}{odds}\n{q}\n")

    calls = event_calls(root, units)
    calls += ["#0\n" + l[3:] + "\n" for b in doc_lines(root) for l in b if l.startswith("do ")]
    step = max(1, len(calls) // MAX_SEEDS)
    for i, c in enumerate(calls[::step][:MAX_SEEDS]):
        head, call = c.split("\n", 1)
        body = {0: call, 1: "odds " + call, 2: "why " + call, 3: call + "undo\nnext\n"}[i % 4]
        write(out, "do", f"c{i:04d}", head + "\n" + body)

    sessions = list(repl_stdins(root)) + ["\n".join(b) + "\n" for b in doc_lines(root)]
    sessions.append("board b.scn\ndraw\nload t.hon\ntest t.hon\nrules\nturn\nnext\nundo\n")
    for i, s in enumerate(sessions):
        write(out, "repl", f"s{i:04d}", s)

    for path in files(root, ["rules"], ".hon"):
        write(out, "lsp", rel(path), lsp_session("file://" + path, read(path)))
    write(out, "lsp", "broken", lsp_frame('{"jsonrpc": "2.0", "id": 1, "method": ') +
          lsp_frame("[1, 2]") + "Content-Length: 9999999999\r\n\r\n{}" +
          lsp_frame({"jsonrpc": "2.0", "id": 4, "method": "textDocument/hover", "params": {}}))

    hon = hon_keywords(root) + OPERATORS
    names = declared(root, ["query", "fn", "table", "event", "enum", "record", "variant",
                            "edition", "module"])
    vocab = declared(root, ["terrain", "counter", "marker", "square_feature", "side_feature",
                            "interspace_item", "army", "kind", "side", "ability", "token"])
    unit_words = ["$" + u for us in units.values() for u in us] + ["@A1", "@C4", "@L9"]
    write_dict(out, "rules", hon + names)
    write_dict(out, "scenario", scn_keywords(root) + vocab + ["unit", "A1", "C4"])
    write_dict(out, "eval", hon + names + vocab + unit_words)
    write_dict(out, "do", names + vocab + unit_words + ["odds ", "why ", "move ", "next", "undo",
                                                        "(", ")", ",", "[", "]"])
    write_dict(out, "lsp", names + ["Content-Length: ", "\r\n\r\n", '"jsonrpc"', '"2.0"',
                                    '"id"', '"method"', '"params"', '"textDocument"', '"uri"',
                                    '"text"', '"position"', '"line"', '"character"',
                                    '"contentChanges"', '"initialize"', '"shutdown"', '"exit"',
                                    '"textDocument/didOpen"', '"textDocument/didChange"',
                                    '"textDocument/hover"', '"textDocument/definition"',
                                    '"textDocument/completion"', '"file:///"'])
    write_dict(out, "repl", hon + names + unit_words + sorted(commands) +
               ["b.scn", "t.hon", "on", "off", "full", "do ", "record", "check"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
