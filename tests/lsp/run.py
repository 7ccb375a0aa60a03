#!/usr/bin/env python3
"""tests/lsp/run.py — drives `hon lsp` (docs/spec/lsp.md) with Language Server Protocol messages
over its stdin and stdout, as an editor would. One named case per meson test
(tests/lsp/meson.build):

    run.py HON SOURCE_ROOT CASE

The bundled rules are what every document is loaded over; the expected places below are found
by reading the bundled files' text (where a name is declared), never copied from the server's
answers. Positions are LSP's: lines from 0, characters counted in UTF-16 code units.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import urllib.parse

HON, SRC, CASE = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), sys.argv[3]
CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def fail(msg):
    print(f"FAIL {CASE}: {msg}")
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)


def uri_of(path):
    return "file://" + urllib.parse.quote(os.path.realpath(path))


def utf16_len(s):
    return len(s.encode("utf-16-le")) // 2


class Server:
    """A running `hon lsp`: send() writes a framed message, request() waits for its answer,
    keeping the notifications (publishDiagnostics) that come before it."""

    def __init__(self, args=()):
        self.p = subprocess.Popen([HON, "lsp", *args], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.next_id = 1
        self.notes = []

    def write(self, body):
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def send(self, method, params=None, id=None):
        msg = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        if id is not None:
            msg["id"] = id
        self.write(json.dumps(msg).encode())

    def read(self):
        length = None
        while True:
            line = self.p.stdout.readline()
            check(line, "the server closed its output")
            if line in (b"\r\n", b"\n"):
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        check(length is not None, "a message without Content-Length")
        return json.loads(self.p.stdout.read(length))

    def answer(self, id):
        while True:
            msg = self.read()
            if msg.get("id") == id and "method" not in msg:
                return msg
            self.notes.append(msg)

    def request(self, method, params=None):
        id = self.next_id
        self.next_id += 1
        self.send(method, params, id)
        return self.answer(id)

    def diagnostics(self, uri):
        """The next diagnostics published for uri."""
        while True:
            for i, n in enumerate(self.notes):
                if n.get("method") == "textDocument/publishDiagnostics" and \
                        n["params"]["uri"] == uri:
                    del self.notes[i]
                    return n["params"]["diagnostics"]
            self.notes.append(self.read())

    def initialize(self, options=None):
        params = {"processId": None, "rootUri": None, "capabilities": {}}
        if options is not None:
            params["initializationOptions"] = options
        r = self.request("initialize", params)
        self.send("initialized", {})
        return r

    def open(self, uri, text):
        self.send("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "hon", "version": 1, "text": text}})

    def change(self, uri, text, version):
        self.send("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                             "contentChanges": [{"text": text}]})

    def at(self, method, uri, line, character):
        return self.request(method, {"textDocument": {"uri": uri},
                                     "position": {"line": line, "character": character}})

    def finish(self, shutdown=True):
        if shutdown:
            r = self.request("shutdown")
            check("error" not in r and r.get("result") is None, f"shutdown answered {r}")
        self.send("exit")
        self.p.stdin.close()
        rest = self.p.stdout.read()
        rc = self.p.wait(timeout=60)
        self.err = self.p.stderr.read().decode(errors="replace")
        self.p.stderr.close()
        self.p.stdout.close()
        return rc, rest


def find(text, needle, nth=0):
    """The LSP position (line, UTF-16 character) of the nth occurrence of needle in text."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    before = text[:at]
    line = before.count("\n")
    return line, utf16_len(before[before.rfind("\n") + 1:])


@case
def formatting():
    """textDocument/formatting (rev12c 5): the capability is advertised; a document is laid out
    as `hon fmt` lays out a file, as one edit replacing the whole text. The text and its layout
    are tests/fmt/golden/messy.hon and messy.expected (written by hand from format.md's
    rules): the edit's newText is messy.expected, its range from the start to the end of the
    last line (after the final newline: line = the text's count of newlines, character 0).
    A document laid out already gets no edit; one that does not parse, null (no change)."""
    golden = os.path.join(SRC, "tests", "fmt", "golden")
    messy = open(os.path.join(golden, "messy.hon"), encoding="utf-8").read()
    want = open(os.path.join(golden, "messy.expected"), encoding="utf-8").read()
    check(messy != want and messy.endswith("\n"), "messy.hon is not laid out")
    with tempfile.TemporaryDirectory() as tmp:
        s = Server()
        caps = s.initialize()["result"]["capabilities"]
        check(caps.get("documentFormattingProvider") is True, f"the capability: {caps}")
        opts = {"tabSize": 4, "insertSpaces": True}
        uri = uri_of(os.path.join(tmp, "messy.hon"))
        s.open(uri, messy)
        r = s.request("textDocument/formatting", {"textDocument": {"uri": uri}, "options": opts})
        edits = r.get("result")
        check(edits == [{"range": {"start": {"line": 0, "character": 0},
                                   "end": {"line": messy.count("\n"), "character": 0}},
                         "newText": want}], f"one edit, to messy.expected: {r}")
        s.change(uri, want, 2)
        r = s.request("textDocument/formatting", {"textDocument": {"uri": uri}, "options": opts})
        check(r.get("result") == [] and "error" not in r, f"laid out already: no edit: {r}")
        # The document's CR LF line ends are kept (format.md §1; the second review of issue 12,
        # defect 5: newText came back with LF): messy.hon with CR LF ends gets messy.expected
        # with CR LF ends, and messy.expected with CR LF ends is laid out already: no edit.
        messy_crlf, want_crlf = messy.replace("\n", "\r\n"), want.replace("\n", "\r\n")
        s.change(uri, messy_crlf, 3)
        r = s.request("textDocument/formatting", {"textDocument": {"uri": uri}, "options": opts})
        check(r.get("result") == [{"range": {"start": {"line": 0, "character": 0},
                                             "end": {"line": messy.count("\n"), "character": 0}},
                                   "newText": want_crlf}], f"CR LF kept: {r}")
        s.change(uri, want_crlf, 4)
        r = s.request("textDocument/formatting", {"textDocument": {"uri": uri}, "options": opts})
        check(r.get("result") == [] and "error" not in r, f"CR LF laid out already: {r}")
        s.change(uri, "fn  f( -> int = 1;\n", 5)
        r = s.request("textDocument/formatting", {"textDocument": {"uri": uri}, "options": opts})
        check("result" in r and r["result"] is None, f"a text that does not parse: null: {r}")
        r = s.request("textDocument/formatting",
                      {"textDocument": {"uri": uri_of(os.path.join(tmp, "closed.hon"))}})
        check(r.get("error", {}).get("code") == -32602, f"an unopened document: {r}")
        rc, _ = s.finish()
        check(rc == 0, f"status {rc}")


@case
def bundled_file():
    """rules/movement.hon opened as it is: it builds with the bundled rules (no diagnostics);
    its rule can_enter.impassable_to_vehicles cites BRO.1.2.difficult-terrain (the file says
    so); movement_value, used there, is a query declared in rules/recruitment.hon and has_trait
    a fn declared in rules/terrain.hon; completing `has_t` offers has_trait; its symbols are its own declarations."""
    path = os.path.join(SRC, "rules", "movement.hon")
    text = open(path, encoding="utf-8").read()
    uri = uri_of(path)
    s = Server()
    init = s.initialize()
    caps = init["result"]["capabilities"]
    for cap in ("hoverProvider", "definitionProvider", "documentSymbolProvider"):
        check(caps.get(cap) is True, f"capability {cap}: {caps}")
    check("completionProvider" in caps and caps.get("textDocumentSync") == 1, f"{caps}")
    s.open(uri, text)
    check(s.diagnostics(uri) == [], "the bundled file has diagnostics")

    # hover on the rule's name in its declaration: its doc and its citation
    line, ch = find(text, "rule can_enter.impassable_to_vehicles")
    h = s.at("textDocument/hover", uri, line, ch + len("rule can_enter.imp"))["result"]
    value = h["contents"]["value"]
    check("BRO.1.2.difficult-terrain" in value and "can_enter.impassable_to_vehicles" in value,
          f"hover on the rule: {value!r}")
    # hover on the query: its signature as declared
    line, ch = find(text, "query can_enter(")
    value = s.at("textDocument/hover", uri, line, ch + 8)["result"]["contents"]["value"]
    check("can_enter(u: unit, sq: square) -> verdict" in value, f"hover on the query: {value!r}")

    # definition of movement_value (a query used in movement.hon) is its declaration in
    # recruitment.hon, and of has_trait (a fn) its declaration in terrain.hon: each at its name
    for name, other, decl in (("movement_value", "recruitment.hon", "query movement_value("),
                              ("has_trait", "terrain.hon", "fn has_trait(")):
        other = os.path.join(SRC, "rules", other)
        want_line, want_ch = find(open(other, encoding="utf-8").read(), decl)
        want_ch += decl.index(" ") + 1
        line, ch = find(text, name + "(")
        loc = s.at("textDocument/definition", uri, line, ch + 2)["result"]
        check(loc["uri"] == uri_of(other), f"{name}'s definition's file: {loc}")
        check(loc["range"] == {"start": {"line": want_line, "character": want_ch},
                               "end": {"line": want_line, "character": want_ch + len(name)}},
              f"{name}'s definition's place: {loc}, want line {want_line}")

    # completion after `has_t` (typed at the end of the text's has_trait): has_trait, a fn,
    # and only names that start so
    line, ch = find(text, "has_trait(sq")
    items = s.at("textDocument/completion", uri, line, ch + len("has_t"))["result"]["items"]
    labels = [i["label"] for i in items]
    check("has_trait" in labels, f"completion: {labels}")
    check(all(l.startswith("has_t") for l in labels), f"completion: {labels}")
    # ... and a keyword: `quer` is completed to query
    line, ch = find(text, "query can_enter(")
    labels = [i["label"] for i in
              s.at("textDocument/completion", uri, line, ch + 4)["result"]["items"]]
    check("query" in labels, f"keyword completion: {labels}")
    # ... and a query: `movement_v` is completed to movement_value
    line, ch = find(text, "movement_value(u)")
    labels = [i["label"] for i in
              s.at("textDocument/completion", uri, line, ch + 10)["result"]["items"]]
    check("movement_value" in labels, f"query completion: {labels}")

    syms = s.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})["result"]
    names = {(x["name"], x["kind"]) for x in syms}
    check(("can_enter", 12) in names and ("can_enter.impassable_to_vehicles", 6) in names,
          f"symbols: {sorted(names)[:20]}")
    check(all(x["name"] != "has_trait" for x in syms), "a symbol of terrain.hon among movement's")
    rc, _ = s.finish()
    check(rc == 0, f"exit after shutdown: status {rc}")


@case
def completion_ranked():
    """Completion answers a CompletionList filtered by the word typed before the cursor, ranked
    by kind and capped at 100 items (docs/spec/lsp.md). In rules/movement.hon, right after
    `when ` (nothing typed yet) every name matches: the bundled rules declare far more than 100
    names (the keywords alone are some 60, the terrain, unit kinds and markers hundreds), so the
    list is cut to 100 and isIncomplete; an expression goes there, so what is called or read
    (queries, fns: LSP kind 3) comes before any keyword (kind 14). At the start of a line, where
    a declaration begins, the keywords come first: after `qu` the keyword query leads. After
    `impassable_to_v` only the member impassable_to_vehicles (a trait, rules/terrain.hon)
    matches: the whole list, isIncomplete false."""
    path = os.path.join(SRC, "rules", "movement.hon")
    text = open(path, encoding="utf-8").read()
    uri = uri_of(path)
    s = Server()
    s.initialize()
    s.open(uri, text)
    check(s.diagnostics(uri) == [], "the bundled file has diagnostics")

    line, ch = find(text, "when is_vehicle_unit(u)")
    r = s.at("textDocument/completion", uri, line, ch + len("when "))["result"]
    items = r["items"]
    check(r["isIncomplete"] is True and len(items) == 100, f"uncapped: {len(items)} items")
    kinds = [i["kind"] for i in items]
    check(kinds[0] == 3 and (14 not in kinds or kinds.index(14) > kinds.index(3)),
          f"a keyword before the queries and fns: {kinds}")
    order = [i["sortText"] for i in items]
    check(order == sorted(order), f"sortText does not keep the list's order: {order}")

    line, ch = find(text, "query can_enter(")
    r = s.at("textDocument/completion", uri, line, ch + 2)["result"]
    labels = [i["label"] for i in r["items"]]
    check(labels and labels[0] == "query" and r["items"][0]["kind"] == 14,
          f"at a line's start the keyword comes first: {labels}")
    check(all(l.startswith("qu") for l in labels), f"unfiltered: {labels}")

    line, ch = find(text, "impassable_to_vehicles)")
    r = s.at("textDocument/completion", uri, line, ch + len("impassable_to_v"))["result"]
    labels = [i["label"] for i in r["items"]]
    check(labels == ["impassable_to_vehicles"] and r["isIncomplete"] is False,
          f"after impassable_to_v: {labels}, {r['isIncomplete']}")
    rc, _ = s.finish()
    check(rc == 0, f"status {rc}")


@case
def broken_file():
    """A new rule file, edited three times: a missing `;` (E012, at the end of the line that
    lacks it), then an unknown name after characters outside ASCII (E100 over the name, its
    characters counted in UTF-16), then a file that builds, whose query is then known, and
    whose rule's parameter goes to the query's parameter list."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "draft.hon")
        uri = uri_of(path)
        s = Server()
        s.initialize()
        first = "fn one() -> int = 1\nfn two() -> int = 2;\n"
        s.open(uri, first)
        d = s.diagnostics(uri)
        check(len(d) == 1 and d[0]["code"] == "E012" and d[0]["severity"] == 1, f"{d}")
        # the `;` belongs right after `= 1`, on line 0 (errors.md: the caret points there)
        check(d[0]["range"]["start"] == {"line": 0, "character": len("fn one() -> int = 1")},
              f"E012's place: {d}")

        line2 = 'rule q.r cite "BRO.1.1.universal-bonus" doc "é😀" answer x + nosuch;'
        second = "query q(x: int) -> int combine first;\n" + line2 + "\n"
        s.change(uri, second, 2)
        d = s.diagnostics(uri)
        check(len(d) == 1 and d[0]["code"] == "E100", f"{d}")
        # é is one UTF-16 unit, 😀 two: the name starts at the UTF-16 length of what precedes it
        start = utf16_len(line2[:line2.index("nosuch")])
        check(d[0]["range"] == {"start": {"line": 1, "character": start},
                                "end": {"line": 1, "character": start + len("nosuch")}},
              f"E100's range: {d}, want from {start}")

        line2 = 'rule q.r cite "BRO.1.1.universal-bonus" answer x + 1;'
        third = "query q(x: int) -> int combine first;\n" + line2 + "\n"
        s.change(uri, third, 3)
        check(s.diagnostics(uri) == [], "the fixed file still has diagnostics")
        # x in the rule is the query's parameter: its definition is where the query names it,
        # `query q(x` (line 0, after the 8 characters of "query q(")
        loc = s.at("textDocument/definition", uri, 1, line2.index("x + 1"))["result"]
        check(loc and loc["range"] == {"start": {"line": 0, "character": 8},
                                       "end": {"line": 0, "character": 9}},
              f"x is bound by the query's parameter list: {loc}")
        loc = s.at("textDocument/definition", uri, 1, len("rule q"))["result"]
        check(loc and loc["uri"] == uri and loc["range"]["start"] == {"line": 1, "character": 5},
              f"the rule q.r is declared at its name: {loc}")
        s.send("textDocument/didClose", {"textDocument": {"uri": uri}})
        check(s.diagnostics(uri) == [], "closing clears the diagnostics")
        rc, _ = s.finish()
        check(rc == 0, f"status {rc}")


@case
def stale_places():
    """While a document's text does not build, the places its last build knows are those of an
    older text: definition and hover answer nothing (null) for a declaration in it, rather than
    a place in the old text (the third review of issue 12: after three comment lines were
    added above, definition of a() pointed at line 0, now a comment). A declaration in another
    file keeps its place: movement_value is declared in rules/recruitment.hon.
    Once the text builds again, a() is found where it now stands (line 3)."""
    s = Server()
    s.initialize()
    uri = "file:///tmp/stale_places.hon"
    first = "fn a() -> int = 1;\nfn b() -> int = a() + 1;\n"
    s.open(uri, first)
    d = s.diagnostics(uri)
    check(all(x["severity"] != 1 for x in d), f"the first text builds: {d}")
    loc = s.at("textDocument/definition", uri, 1, first.split("\n")[1].index("a()"))["result"]
    check(loc and loc["range"]["start"] == {"line": 0, "character": 3}, f"built: {loc}")
    broken = ("# new\n# lines\n# here\nfn a() -> int = 1;\nfn b() -> int = a() + zz;\n"
              "fn c(u: unit) -> int = movement_value(u);\n")
    s.change(uri, broken, 2)
    d = s.diagnostics(uri)
    check(len(d) == 1 and d[0]["code"] == "E100", f"zz is unknown: {d}")
    col = broken.split("\n")[4].index("a()")
    for method in ("textDocument/definition", "textDocument/hover"):
        r = s.at(method, uri, 4, col)
        check("error" not in r and r["result"] is None, f"{method} on a() while broken: {r}")
    other = os.path.join(SRC, "rules", "recruitment.hon")
    want, _ = find(open(other, encoding="utf-8").read(), "query movement_value(")
    loc = s.at("textDocument/definition", uri, 5, broken.split("\n")[5].index("movement_v"))
    loc = loc["result"]
    check(loc and loc["uri"] == uri_of(other) and loc["range"]["start"]["line"] == want,
          f"movement_value in recruitment.hon while broken: {loc}, want line {want}")
    fixed = broken.replace("zz", "2")
    s.change(uri, fixed, 3)
    d = s.diagnostics(uri)
    check(all(x["severity"] != 1 for x in d), f"the fixed text builds: {d}")
    loc = s.at("textDocument/definition", uri, 4, col)["result"]
    check(loc and loc["range"]["start"] == {"line": 3, "character": 3}, f"fixed: {loc}")
    rc, _ = s.finish()
    check(rc == 0, f"status {rc}")


@case
def protocol_errors():
    """JSON-RPC's answers to what is not a good request: malformed JSON is a ParseError
    (-32700) with a null id, a value that is no request an InvalidRequest (-32600), a request
    before initialize ServerNotInitialized (-32002), an unknown method MethodNotFound (-32601);
    the server goes on after each. `exit` without `shutdown` ends with status 1."""
    s = Server()
    s.write(b'{"jsonrpc": "2.0", "id": 1, "method": ')
    r = s.read()
    check(r.get("id") is None and r["error"]["code"] == -32700, f"malformed JSON: {r}")
    s.write(b"[1, 2]")
    r = s.read()
    check(r["error"]["code"] == -32600, f"an array: {r}")
    r = s.request("textDocument/hover", {})
    check(r["error"]["code"] == -32002, f"before initialize: {r}")
    s.initialize()
    r = s.request("workspace/frobnicate", {})
    check(r["error"]["code"] == -32601, f"unknown method: {r}")
    s.send("$/unknownNotification", {})  # a notification: no answer
    r = s.request("textDocument/hover", {"textDocument": {"uri": "file:///nowhere.hon"},
                                         "position": {"line": 0, "character": 0}})
    check(r["error"]["code"] == -32602, f"a document never opened: {r}")
    s.write(b"\xff\xfe not json at all")
    r = s.read()
    check(r["error"]["code"] == -32700, f"bytes that are not JSON: {r}")
    rc, rest = s.finish(shutdown=False)
    check(rc == 1, f"exit without shutdown: status {rc}")
    check(rest == b"", f"nothing after exit: {rest!r}")


@case
def ids_and_positions_checked():
    """s20 newuser20 P13. JSON-RPC 2.0 (§4) allows a request id that is a string, a number or
    null: an object or an array as id is an Invalid Request (-32600), answered with id null,
    and the server goes on. LSP positions are uintegers (0 .. 2^31 - 1): a line or character
    that is a string, a negative number or 2^40 is Invalid Params (-32602), not a completion
    list as before. Good ids of each kind are answered with themselves."""
    s = Server(["--no-rules"])
    for bad in ({"a": 1}, [1]):
        s.write(json.dumps({"jsonrpc": "2.0", "id": bad, "method": "initialize",
                            "params": {"capabilities": {}}}).encode())
        r = s.read()
        check(r.get("id") is None and r["error"]["code"] == -32600, f"id {bad!r}: {r}")
    s.write(json.dumps({"jsonrpc": "2.0", "id": "init-1", "method": "initialize",
                        "params": {"capabilities": {}}}).encode())
    r = s.read()
    check(r.get("id") == "init-1" and "result" in r, f"a string id is answered with it: {r}")
    uri = "file:///tmp/ids.hon"
    s.open(uri, "fn g() -> int = 42;\n")
    for line, character in (("x", 0), (0, "y"), (-1, 0), (0, -3), (2 ** 40, 0), (0, 1.5)):
        r = s.request("textDocument/completion", {"textDocument": {"uri": uri},
                                                  "position": {"line": line,
                                                               "character": character}})
        check(r.get("error", {}).get("code") == -32602,
              f"position ({line!r}, {character!r}): {r}")
    r = s.at("textDocument/completion", uri, 0, 16)
    check("result" in r, f"a good position still completes: {r}")
    rc, _ = s.finish()
    check(rc == 0, f"status {rc}")


@case
def end_of_input():
    """The input ending without `exit` ends the server with status 1 (LSP: exit's code when no
    shutdown came), as does a truncated message."""
    p = subprocess.run([HON, "lsp"], input=b"Content-Length: 50\r\n\r\n{\"id\": 1",
                       capture_output=True, timeout=60)
    check(p.returncode == 1, f"status {p.returncode}")
    check(b"-32700" in p.stdout, f"the truncated message is a ParseError: {p.stdout!r}")


@case
def truncated_body():
    """A body shorter than its Content-Length at the end of the input is not a message: even
    when the bytes that came are a whole request (here an initialize, 10 bytes short of what
    its header announced), the server must not answer it. The JSON-RPC answer to what cannot be
    read as a message is a ParseError (-32700, id null); the input has ended, which is `exit`
    without `shutdown`: status 1."""
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                       "params": {"capabilities": {}}}).encode()
    p = subprocess.run([HON, "lsp"], input=b"Content-Length: %d\r\n\r\n" % (len(body) + 10) + body,
                       capture_output=True, timeout=60)
    check(p.returncode == 1, f"status {p.returncode}")
    out = p.stdout.split(b"\r\n\r\n")
    check(len(out) == 2, f"one answer, no more: {p.stdout!r}")
    r = json.loads(out[1])
    check(r.get("id") is None and r["error"]["code"] == -32700 and "result" not in r,
          f"the truncated request was answered: {r}")


def citing_rules(cite_id):
    """The rules of the bundled rules/ files that cite cite_id, as (name, path, line from 1):
    for each `cite "ID"` line, the declaration it belongs to is the last line before it that
    starts a declaration at column 0; only rules count."""
    out = []
    rules = os.path.join(SRC, "rules")
    for name in sorted(os.listdir(rules)):
        if not name.endswith(".hon"):
            continue
        lines = open(os.path.join(rules, name), encoding="utf-8").read().split("\n")
        decl = None
        for i, ln in enumerate(lines):
            if ln[:1].isalpha():
                decl = (ln, i + 1)
            if ln.strip().startswith(f'cite "{cite_id}"') and decl and \
                    decl[0].startswith("rule "):
                out.append((decl[0].split()[1], name, decl[1]))
    return out


@case
def citations():
    """On a citation ID (`cite "BRO.1.2.difficult-terrain"` in rules/movement.hon), hover
    shows the ID, its source text as rules/sources.hon declares it, and every rule that cites
    it with its file and line (found here by reading the bundled files: five rules, four in
    movement.hon, one in terrain.hon); go to definition jumps to its `source` declaration in
    rules/sources.hon. Elsewhere in the same line (the keyword cite) hover is not about the ID."""
    cite_id = "BRO.1.2.difficult-terrain"
    path = os.path.join(SRC, "rules", "movement.hon")
    text = open(path, encoding="utf-8").read()
    sources = os.path.join(SRC, "rules", "sources.hon")
    stext = open(sources, encoding="utf-8").read()
    decl = f'source "{cite_id}" = "'
    sline, _ = find(stext, decl)
    book = stext.split("\n")[sline][len(decl):].split('"')[0]
    want = citing_rules(cite_id)
    check(len(want) == 5, f"the bundled rules citing {cite_id}: {want}")
    uri = uri_of(path)
    s = Server()
    s.initialize()
    s.open(uri, text)
    check(s.diagnostics(uri) == [], "the bundled file has diagnostics")
    line, ch = find(text, f'cite "{cite_id}"')
    value = s.at("textDocument/hover", uri, line, ch + len('cite "BRO.1'))["result"]
    value = value["contents"]["value"]
    check(cite_id in value and book in value, f"hover on the ID: {value!r}")
    for name, file, at in want:
        check(f"`{name}` " in value and f"{file}:{at}" in value,
              f"{name} ({file}:{at}) cites it: {value!r}")
    check(value.count("\n- `") == len(want),
          f"rules that do not cite it listed: {value!r}")
    loc = s.at("textDocument/definition", uri, line, ch + len('cite "BRO'))["result"]
    check(loc and loc["uri"] == uri_of(sources) and loc["range"]["start"]["line"] == sline,
          f"the ID's definition: {loc}, want {sources}:{sline}")
    h = s.at("textDocument/hover", uri, line, ch + 1)["result"]
    check(h is None or cite_id not in h["contents"]["value"], f"hover on `cite`: {h}")
    rc, _ = s.finish()
    check(rc == 0, f"status {rc}")


@case
def citations_inventory():
    """Issue 12 §6: with a rules inventory (`hon lsp --inventory FILE`, or the client's
    initializationOptions {"inventory": PATH}, which replaces the flag), definition on a
    citation ID goes to the ID in its row of the inventory. The inventory here is written by the
    test: a heading, a table whose rows are `| ID | kind | clause |`; the ID we ask about is on
    its 8th line (LSP line 7), after a row whose ID only starts like it and a prose line that
    names it, neither of which is its row. Its ID starts at character 2 (after "| "). An ID the
    inventory does not list (BRO.1.2.embankment, cited in movement.hon) still goes to its
    `source` declaration in rules/sources.hon, as does every ID when the inventory named
    cannot be read (which standard error says). `lsp --inventory` without a file is a usage
    error (exit 2)."""
    cite_id, other = "BRO.1.2.difficult-terrain", "BRO.1.2.embankment"
    path = os.path.join(SRC, "rules", "movement.hon")
    text = open(path, encoding="utf-8").read()
    sources = os.path.join(SRC, "rules", "sources.hon")
    stext = open(sources, encoding="utf-8").read()
    oline, _ = find(stext, f'source "{other}" = "')
    check(f'cite "{other}"' in text, f"movement.hon cites {other}")
    rows = ["# Rules inventory", "",
            f"Prose naming {cite_id} is not a row.", "",
            "| ID | kind | clause |", "|---|---|---|",
            f"| {cite_id}-x | pass | another clause whose ID starts the same |",
            f"| {cite_id} | pass | the clause |"]
    with tempfile.TemporaryDirectory() as tmp:
        inv = os.path.join(tmp, "inventory.md")
        with open(inv, "w") as f:
            f.write("\n".join(rows) + "\n")
        empty = os.path.join(tmp, "empty.md")
        open(empty, "w").close()
        want = {"uri": uri_of(inv), "range": {"start": {"line": 7, "character": 2},
                                              "end": {"line": 7, "character": 2 + len(cite_id)}}}
        line, ch = find(text, f'cite "{cite_id}"')
        oline_m, och = find(text, f'cite "{other}"')
        uri = uri_of(path)
        # the flag; the initializationOptions naming the inventory over a flag naming an empty one
        for args, options in ((["--inventory", inv], None),
                              (["--inventory", empty], {"inventory": inv})):
            s = Server(args)
            s.initialize(options)
            s.open(uri, text)
            s.diagnostics(uri)
            loc = s.at("textDocument/definition", uri, line, ch + len('cite "BRO'))["result"]
            check(loc == want, f"{args} {options}: the ID's row: {loc}, want {want}")
            loc = s.at("textDocument/definition", uri, oline_m, och + len('cite "BRO'))["result"]
            check(loc and loc["uri"] == uri_of(sources) and
                  loc["range"]["start"]["line"] == oline,
                  f"an ID the inventory does not list: {loc}, want {sources}:{oline}")
            rc, _ = s.finish()
            check(rc == 0, f"status {rc}")
        # an inventory that cannot be read: said on standard error, and the ID goes to its
        # source declaration as without one
        s = Server(["--inventory", os.path.join(tmp, "missing.md")])
        s.initialize()
        s.open(uri, text)
        s.diagnostics(uri)
        loc = s.at("textDocument/definition", uri, line, ch + len('cite "BRO'))["result"]
        sline, _ = find(stext, f'source "{cite_id}" = "')
        check(loc and loc["uri"] == uri_of(sources) and loc["range"]["start"]["line"] == sline,
              f"no inventory to read: {loc}, want {sources}:{sline}")
        rc, _ = s.finish()
        check(rc == 0 and "cannot read the inventory" in s.err and "missing.md" in s.err,
              f"the unreadable inventory is said: {s.err!r}")
        # newuser20 P2: an inventory that is no regular file — /dev/zero, read forever, and a
        # FIFO with no writer, which blocked the open — hung the server at the first definition
        # on a citation, and the shutdown after it was never answered. Refused as --load
        # refuses them (said on standard error, with the reason), by the flag and by the
        # client's initializationOptions alike; the ID then goes to its source declaration.
        # A watchdog kills a server that does not finish in 20 s: its closed output fails.
        fifo = os.path.join(tmp, "inventory.fifo")
        os.mkfifo(fifo)
        for args, options, named in ((["--inventory", "/dev/zero"], None, "/dev/zero"),
                                     (["--inventory", fifo], None, fifo),
                                     ([], {"inventory": "/dev/zero"}, "/dev/zero")):
            s = Server(args)
            dog = threading.Timer(20, s.p.kill)
            dog.start()
            try:
                s.initialize(options)
                s.open(uri, text)
                s.diagnostics(uri)
                loc = s.at("textDocument/definition", uri, line, ch + len('cite "BRO'))["result"]
                check(loc and loc["uri"] == uri_of(sources) and
                      loc["range"]["start"]["line"] == sline,
                      f"{args} {options}: an inventory that is no file: {loc}, want "
                      f"{sources}:{sline}")
                rc, _ = s.finish()
            finally:
                dog.cancel()
            check(rc == 0 and f"cannot read the inventory '{named}': not a regular file" in s.err,
                  f"{args} {options}: the inventory that is no file is said: {s.err!r}")
    p = subprocess.run([HON, "lsp", "--inventory"], capture_output=True, text=True,
                       stdin=subprocess.DEVNULL, timeout=60)
    check(p.returncode == 2 and "--inventory" in p.stderr, f"lsp --inventory alone: {p}")


@case
def lint_warnings():
    """`hon lint`'s warnings about a document are published with its diagnostics, severity 2
    (warning), with their code: a fn nothing calls is W001 (errors.md), over its name; a guard
    `when false` is W003. A document that builds and lints clean has none."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "draft.hon")
        uri = uri_of(path)
        s = Server()
        s.initialize()
        text = ("fn never_called(n: int) -> int = n + 1;\n"
                "query q(x: int) -> int combine first;\n"
                'rule q.off cite "BRO.1.1.universal-bonus" when false answer 1;\n'
                'rule q.on cite "BRO.1.1.universal-bonus" answer x;\n')
        s.open(uri, text)
        d = s.diagnostics(uri)
        codes = sorted(x["code"] for x in d)
        check("W001" in codes and "W003" in codes, f"lint warnings: {d}")
        check(all(x["severity"] == 2 for x in d), f"a lint warning that is not severity 2: {d}")
        w1 = [x for x in d if x["code"] == "W001"][0]
        check(w1["range"] == {"start": {"line": 0, "character": 3},
                              "end": {"line": 0, "character": 3 + len("never_called")}},
              f"W001's place: {w1}")
        s.change(uri, 'query q(x: int) -> int combine first;\n'
                      'rule q.on cite "BRO.1.1.universal-bonus" answer x;\n', 2)
        check(s.diagnostics(uri) == [], "a clean document has diagnostics")
        rc, _ = s.finish()
        check(rc == 0, f"status {rc}")


def scenario_units(path, prefix=""):
    """The unit names a scenario file declares (its `unit NAME = ...` lines, board.md §4)
    that start with prefix, read from the file."""
    names = []
    for ln in open(path, encoding="utf-8"):
        f = ln.split("#")[0].split()
        if len(f) > 2 and f[0] == "unit" and f[2] == "=" and f[1].startswith(prefix):
            names.append(f[1])
    return names


def labels_at(s, uri, text, needle, offset, nth=0):
    line, ch = find(text, needle, nth)
    r = s.at("textDocument/completion", uri, line, ch + offset)["result"]
    return sorted(i["label"] for i in r["items"])


@case
def completion_boards():
    """Completion after `$` offers the board's units, after `@` its squares (language.md §5.2:
    `$rifle1`, `@C4` or `@c4`). Without any board there are none. A board named in the
    client's initializationOptions ({"board": PATH}, as --board) is the documents' board:
    examples/boards/little_river.scn, `size 10 x 8`, so `@c` gives column C's eight squares
    C1..C8, and `$scouts` its units whose names start so (read from its `unit` lines). A board
    that cannot be loaded is said on standard error and the server goes on without it. In a
    test that names its board (`board "FILE"`, relative to the test's file), `$` completes that
    board's units: tests/rules/abilities.hon's Engineer test plays on
    examples/boards/beach_seawall.scn and its Urban Fighter test on boards/rest_abilities.scn,
    the server having no board of its own."""
    river = os.path.join(SRC, "examples", "boards", "little_river.scn")
    with tempfile.TemporaryDirectory() as tmp:
        uri = uri_of(os.path.join(tmp, "draft.hon"))
        text = "fn f() -> bool = $scouts_west == $scouts_west;\nfn g() -> square = @c1;\n"
        s = Server()
        s.initialize()
        s.open(uri, text)
        s.diagnostics(uri)
        check(labels_at(s, uri, text, "$scouts", 1) == [], "units without a board")
        s.finish()

        want = sorted(scenario_units(river, "scouts"))
        check(len(want) == 3, f"little_river.scn's scouts: {want}")
        s = Server()
        s.initialize({"board": river})
        s.open(uri, text)
        d = s.diagnostics(uri)
        check(all(x["severity"] != 1 for x in d), f"the draft has errors over the board: {d}")
        got = labels_at(s, uri, text, "$scouts", len("$scouts"))
        check(got == want, f"after $scouts: {got}, want {want}")
        got = labels_at(s, uri, text, "@c1", len("@c"))
        check(got == [f"C{r}" for r in range(1, 9)], f"after @c: {got}")
        rc, _ = s.finish()
        check(rc == 0, f"status {rc}")

        s = Server()
        s.initialize({"board": os.path.join(tmp, "missing.scn")})
        s.open(uri, text)
        s.diagnostics(uri)
        check(labels_at(s, uri, text, "$scouts", 1) == [], "units of a board that did not load")
        rc, _ = s.finish()
        check(rc == 0 and "missing.scn" in s.err, f"the missing board is said: {s.err!r}")

    path = os.path.join(SRC, "tests", "rules", "abilities.hon")
    text = open(path, encoding="utf-8").read()
    uri = uri_of(path)
    s = Server()
    s.initialize()
    s.open(uri, text)
    s.diagnostics(uri)
    beach = os.path.join(SRC, "examples", "boards", "beach_seawall.scn")
    want = sorted(scenario_units(beach, "rif"))
    check(len(want) == 3, f"beach_seawall.scn's riflemen: {want}")
    got = labels_at(s, uri, text, "engineer_removes_wire_at($rifle2", len("engineer_removes_wire_at($rif"))
    check(got == want, f"in the Engineer test, after $rif: {got}, want {want}")
    rest = os.path.join(SRC, "tests", "rules", "boards", "rest_abilities.scn")
    want = sorted(scenario_units(rest, "uf"))
    check(len(want) >= 3, f"rest_abilities.scn's uf units: {want}")
    got = labels_at(s, uri, text, "urban_fighter_may_pass($uf_in", len("urban_fighter_may_pass($uf"))
    check(got == want, f"in the Urban Fighter test, after $uf: {got}, want {want}")
    rc, _ = s.finish()
    check(rc == 0, f"status {rc}")


def hover_at(s, uri, text, needle, offset, nth=0):
    line, ch = find(text, needle, nth)
    h = s.at("textDocument/hover", uri, line, ch + offset)["result"]
    return h["contents"]["value"] if h else None


def definition_at(s, uri, text, needle, offset, nth=0):
    line, ch = find(text, needle, nth)
    return s.at("textDocument/definition", uri, line, ch + offset)["result"]


def at_name(path, decl_needle, name, nth=0):
    """The LSP location of the word `name` (its first whole-word occurrence) inside the text
    `decl_needle` of the file at path."""
    text = open(path, encoding="utf-8").read()
    line, ch = find(text, decl_needle, nth)
    ch += re.search(r"\b%s\b" % re.escape(name), decl_needle).start()
    return {"uri": uri_of(path), "range": {"start": {"line": line, "character": ch},
                                           "end": {"line": line, "character": ch + len(name)}}}


@case
def typed_references():
    """Hover and definition follow what the resolver read, not the bare word. In
    rules/line_of_sight.hon, `s.from` in rule sight_along.range_limit: `s` is the query
    sight_along's parameter, of the record type shot (`query sight_along(s: shot)`), so `from`
    is the field from of record shot (`from: square` in `record shot {`), and `s` goes to the
    query's parameter; `st.side`, st a step of line(...), is a field of the built-in record
    step, a square_side (language.md §5.3), which has no place to go to. In
    expansions/bloody_omaha_scenarios.hon, german_victory is a member of two enums,
    omaha1_level and river_level (both declared there): in river_level_holds (`l ==
    german_victory`, l a river_level) it is river_level's, in rule omaha1_victory.german (`answer
    german_victory`, the query giving an omaha1_level) omaha1_level's; the hover names the enum.
    A rule's hover gives its query's signature as the query declares it, its doc and its
    citations; a fn's, the comment lines written right above it (the language has no doc string
    for a fn)."""
    los = os.path.join(SRC, "rules", "line_of_sight.hon")
    text = open(los, encoding="utf-8").read()
    uri = uri_of(los)
    s = Server()
    s.initialize()
    s.open(uri, text)
    check(s.diagnostics(uri) == [], "line_of_sight.hon has diagnostics")
    use = "when (distance(s.from, s.to) > reach"
    check(use in text, f"line_of_sight.hon still has `{use}`")
    field = at_name(los, "  from: square,", "from")
    value = hover_at(s, uri, text, use, len("when (distance(s.fr"))
    check(value and "from: square" in value and "`shot`" in value, f"hover on s.from: {value!r}")
    loc = definition_at(s, uri, text, use, len("when (distance(s.fr"))
    check(loc == field, f"s.from's definition: {loc}, want {field}")
    param = at_name(los, "query sight_along(s: shot)", "s")
    value = hover_at(s, uri, text, use, len("when (distance("))
    check(value and "s: shot" in value, f"hover on s: {value!r}")
    loc = definition_at(s, uri, text, use, len("when (distance("))
    check(loc == param, f"s's definition: {loc}, want {param}")
    side = "past_reach(s, st.side"
    value = hover_at(s, uri, text, side, len("past_reach(s, st.si"))
    check(value and "side: square_side" in value and "`step`" in value,
          f"hover on st.side: {value!r}")
    loc = definition_at(s, uri, text, side, len("past_reach(s, st.si"))
    check(loc is None, f"a built-in field has no place: {loc}")

    rule = "rule sight_along.terrain_between"
    check(rule in text, f"line_of_sight.hon still has {rule}")
    value = hover_at(s, uri, text, rule, len("rule sight_al"))
    cites = [ln.split('"')[1] for ln in text[text.index(rule):].split("\n\n")[0].split("\n")
             if ln.strip().startswith("cite ")]
    check(value and "sight_along(s: shot) -> sight" in value and
          "The terrain of every square the line passes" in value and
          all(c in value for c in cites) and len(cites) == 2,
          f"hover on the rule: {value!r}, its cites {cites}")
    fn = "fn sees_from_sourced_squares(u: unit) -> bool"
    comment = "# Which squares a unit sees from is sourced for one-square units"
    check(comment + " and for embarked ones" in text and
          text.index(fn) - text.index(comment) < 200, "the fn's comment moved")
    value = hover_at(s, uri, text, "sees_from_sourced_squares(", 3, nth=1)
    check(value and "(u: unit) -> bool" in value and comment[2:] in value,
          f"hover on a fn's call: {value!r}")
    s.finish()

    bo = os.path.join(SRC, "expansions", "bloody_omaha_scenarios.hon")
    text = open(bo, encoding="utf-8").read()
    uri = uri_of(bo)
    s = Server()
    s.initialize()
    s.open(uri, text)
    d = s.diagnostics(uri)
    check(all(x["severity"] != 1 for x in d), f"bloody_omaha_scenarios.hon has errors: {d}")
    river = at_name(bo, "minor_american, american_victory, major_american, minor_german, "
                        "german_victory", "german_victory")
    omaha = at_name(bo, "enum omaha1_level { german_victory", "german_victory")
    for needle, want, enum in (("else if l == german_victory", river, "river_level"),
                               ("answer german_victory", omaha, "omaha1_level")):
        at = needle.index("german_victory") + 3
        loc = definition_at(s, uri, text, needle, at)
        check(loc == want, f"{needle}: definition {loc}, want {want}")
        value = hover_at(s, uri, text, needle, at)
        check(value and f"{enum} german_victory" in value and f"enum {enum}" in value,
              f"{needle}: hover {value!r}")
    rc, _ = s.finish()
    check(rc == 0, f"status {rc}")


@case
def scenario_symbols():
    """documentSymbol on a scenario (.scn) lists its directives (board.md §4), read from its
    text: examples/boards/little_river.scn has its title, three cites, its size, eight legend
    entries on two lines, a map, two elements (the farmhouse and the woods), two square lines
    (the German deployment zone and the scenario the board plays) and six units (counted
    here from its lines); the example boards set no colours of their own (board.md §5), so the
    document opened is the file with two colour lines added at its end, which the outline lists. Each unit is a Variable (13) named as its line
    names it, with the rest of the line as its detail; the map's range runs from `map` to its
    last row. A scenario that no longer loads (a unit of an unknown counter: E303) keeps its
    outline."""
    path = os.path.join(SRC, "examples", "boards", "little_river.scn")
    text = open(path, encoding="utf-8").read()
    lines = text.split("\n")
    code = [ln.split("#")[0].split() for ln in lines]
    count = lambda kw: sum(1 for f in code if f and f[0] == kw)
    units = scenario_units(path)
    check(len(units) == 6 and count("cite") == 3 and count("colour") == 0, "the board changed")
    text += 'colour terrain grass "#88aa55"\ncolour army axis "#cc8888"\n'
    lines = text.split("\n")
    uri = uri_of(path)
    s = Server()
    s.initialize()
    s.open(uri, text)
    check(s.diagnostics(uri) == [], "little_river.scn has diagnostics")
    syms = s.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})["result"]
    by = {}
    for x in syms:
        by.setdefault(x["detail"].split()[0], []).append(x)
    check([x["name"] for x in by.get("unit", [])] == units, f"units: {by.get('unit')}")
    check(all(x["kind"] == 13 for x in by["unit"]), f"unit kinds: {by['unit']}")
    kraiss = [x for x in by["unit"] if x["name"] == "kraiss"][0]
    kline = next(i for i, ln in enumerate(lines) if ln.startswith("unit kraiss"))
    check(kraiss["detail"] == "unit officer axis at F2 with kraiss" and
          kraiss["selectionRange"]["start"] == {"line": kline, "character": 5},
          f"kraiss: {kraiss}")
    legend = [x["name"] for x in by.get("legend", [])]
    check(len(legend) == 8 and "g = grass" in legend and "p = grass + primary_objective" in legend,
          f"legend: {legend}")
    check([x["name"] for x in by.get("element", [])] == ["farmhouse", "woods"], f"{by.get('element')}")
    check([x["name"] for x in by.get("size", [])] == ["size 10 x 8"], f"{by.get('size')}")
    check(len(by.get("cite", [])) == 3 and len(by.get("colour", [])) == 2 and
          len(by.get("square", [])) == 2, f"cites, colours, squares: {sorted(by)}")
    mline = lines.index("map")
    last = mline
    while lines[last + 1].strip()[:1].isdigit() or lines[last + 1].strip().startswith("A "):
        last += 1
    m = by.get("map", [{}])[0]
    check(m.get("range", {}).get("start", {}).get("line") == mline and
          m["range"]["end"]["line"] == last, f"the map: {m}, want lines {mline}..{last}")
    # LSP: a symbol's selectionRange lies inside its range (a `cite "ID"` line's range ends on
    # its closing quote, as its selectionRange, the quoted ID, does).
    pos = lambda p: (p["line"], p["character"])
    outside = [x for x in syms if pos(x["selectionRange"]["start"]) < pos(x["range"]["start"]) or
               pos(x["selectionRange"]["end"]) > pos(x["range"]["end"])]
    check(outside == [], f"selectionRange outside range: {outside}")
    title = [x for x in syms if x["kind"] == 15]
    check(len(title) == 1 and title[0]["name"] == "Little River of No Return (example board)",
          f"the title: {title}")

    broken = text.replace("= officer axis", "= no_such_counter axis")
    s.change(uri, broken, 2)
    d = s.diagnostics(uri)
    check(any(x["code"] == "E303" for x in d), f"the broken board: {d}")
    syms = s.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})["result"]
    check([x["name"] for x in syms if x["kind"] == 13] == units, f"after the error: {syms}")
    rc, _ = s.finish()
    check(rc == 0, f"status {rc}")


@case
def completion_after_a_dot():
    """After `NAME.` completion offers what may follow: the rules of the query NAME, by their own
    names (as the REPL's `show NAME.<Tab>` and `replace rule NAME.RULE` name them), or the
    members of the enum NAME, filtered by what is typed after the dot (the fresh review of
    issue 12: it offered 100 unrelated names, marked incomplete). The rules of speed_penalty
    and range_limit_along are read from the rule files' `rule QUERY.NAME` lines; the enum weather
    of expansions/battle_for_normandy.hon has the members ... cloudy, clear: `cl` keeps those.
    So that an editor asks for it as the dot is typed, `.` is one of the completion trigger
    characters `initialize` lists, with `$` and `@` (lsp.md; the third review of issue 12)."""
    def rules_of(query):
        found = set()
        for sub in ("rules", "expansions"):
            for f in sorted(os.listdir(os.path.join(SRC, sub))):
                if f.endswith(".hon"):
                    for l in open(os.path.join(SRC, sub, f), encoding="utf-8"):
                        m = re.match(r"^\s*rule " + query + r"\.(\w+)", l)
                        if m:
                            found.add(m.group(1))
        return found
    s = Server()
    caps = s.initialize()["result"]["capabilities"]
    trig = caps["completionProvider"].get("triggerCharacters", [])
    check(sorted(trig) == sorted(["$", "@", "."]), f"trigger characters: {trig}")
    uri = "file:///tmp/completion_after_a_dot.hon"
    for n, (text, want) in enumerate((
            ("fn z() -> int = speed_penalty.", rules_of("speed_penalty")),
            ("fn z() -> int = speed_penalty.no", {r for r in rules_of("speed_penalty")
                                                  if r.startswith("no")}),
            ("edition e {\n  replace rule range_limit_along.", rules_of("range_limit_along")),
            ("fn w() -> bool = weather.cl", {"cloudy", "clear"}))):
        if n == 0:
            s.open(uri, text)
        else:
            s.change(uri, text, n + 1)
        s.diagnostics(uri)
        lines_ = text.split("\n")
        r = s.at("textDocument/completion", uri, len(lines_) - 1, len(lines_[-1]))["result"]
        labels = {i["label"] for i in r["items"]}
        check(want, f"the rule files name rules: {want}")
        check(labels == want and r["isIncomplete"] is False,
              f"after {text!r}: {sorted(labels)}, want {sorted(want)}")
    rc, _ = s.finish()
    check(rc == 0, f"status {rc}")


@case
def field_definition():
    """Definition on a field's own name in a record declaration is that field, not another
    declaration of the same name (the fresh review of issue 12: `vs_infantry` of `record
    mine_counter` in rules/mines.hon went to a `value vs_infantry` of rules/events.hon); hover
    there names the field, its type as declared (int) and its record."""
    path = os.path.join(SRC, "rules", "mines.hon")
    text = open(path, encoding="utf-8").read()
    uri = uri_of(path)
    s = Server()
    s.initialize()
    s.open(uri, text)
    check(s.diagnostics(uri) == [], "the bundled file has diagnostics")
    line, ch = find(text, "vs_infantry: int")
    check(find(text, "record mine_counter {")[0] == line, "the field is on the record's line")
    loc = s.at("textDocument/definition", uri, line, ch + 3)["result"]
    check(loc == {"uri": uri, "range": {"start": {"line": line, "character": ch},
                                        "end": {"line": line, "character": ch + 11}}},
          f"the field's definition: {loc}")
    value = s.at("textDocument/hover", uri, line, ch + 3)["result"]["contents"]["value"]
    check("vs_infantry: int" in value and "record `mine_counter`" in value and
          "value vs_infantry" not in value, f"hover on the field: {value!r}")
    rc, _ = s.finish()
    check(rc == 0, f"status {rc}")


@case
def field_completion_of_locals():
    """After `m.` where m is a local of a record type, completion offers the record's fields,
    filtered by what follows the dot (issue 12: it offered nothing). The text being typed does
    not build, so m's type is read from the declaration as written (lsp.md): a fn's parameter
    (`m: mine_counter`), a rule's parameter, its query's (aircraft_visibility(o: air_order)), a
    let bound to a fn's result (numbered_order -> air_order), a let bound to a record value, and
    a comprehension's variable over a list of records. The fields are read from the rule files'
    one-line `record NAME { field: type, ... }` declarations (rules/mines.hon, aviation.hon)."""
    def fields_of(record):
        for f in ("mines.hon", "aviation.hon"):
            for l in open(os.path.join(SRC, "rules", f), encoding="utf-8"):
                m = re.match(r"^record " + record + r" \{ (.*) \}$", l.strip())
                if m:
                    return {x.split(":")[0].strip() for x in m.group(1).split(",")}
        return set()
    mine, order = fields_of("mine_counter"), fields_of("air_order")
    check(len(mine) == 4 and len(order) == 2, f"the records' fields: {mine} {order}")
    s = Server()
    s.initialize()
    uri = "file:///tmp/field_completion_of_locals.hon"
    for n, (text, want) in enumerate((
            ("fn f(m: mine_counter) -> int = m.vs_", {x for x in mine if x.startswith("vs_")}),
            ('rule aircraft_visibility.x\n  cite "X.1"\n  when o.', order),
            ("fn g() -> int =\n  let o = numbered_order(2);\n  o.nu", {"number"}),
            ("fn h() -> int =\n  let m = mine_counter{type: anti_tank, vs_infantry: 0, "
             "vs_light: 0, vs_heavy: 1};\n  m.", mine),
            ("fn k() -> int = count(x in [numbered_order(1)]: x.st", {"state"}))):
        if n == 0:
            s.open(uri, text)
        else:
            s.change(uri, text, n + 1)
        s.diagnostics(uri)
        lines_ = text.split("\n")
        r = s.at("textDocument/completion", uri, len(lines_) - 1, len(lines_[-1]))["result"]
        labels = {i["label"] for i in r["items"]}
        check(want and labels == want, f"after {text!r}: {sorted(labels)}, want {sorted(want)}")
    rc, _ = s.finish()
    check(rc == 0, f"status {rc}")


@case
def unused_module():
    """A draft that declares a module no edition uses, with a rule, gets the warning E147
    (errors.md; sitting 20, F15), severity 2, over the module's name on line 0 (`module ` is 7
    characters: characters 7 to 7 + len); its rule never runs under an edition. A draft without
    the `module` line belongs to the unnamed module, which every edition uses: no warning."""
    text = ('module lonely_module;\n'
            'source "LONELY.1" = "Lonely book";\n'
            'query lonely_q(n: int) -> int combine first default 0;\n'
            'rule lonely_q.one cite "LONELY.1" answer 1;\n')
    uri = "file:///tmp/unused_module.hon"
    s = Server()
    s.initialize()
    s.open(uri, text)
    d = s.diagnostics(uri)
    check(len(d) == 1 and d[0]["code"] == "E147" and d[0]["severity"] == 2, f"E147: {d}")
    check(d[0]["range"] == {"start": {"line": 0, "character": 7},
                            "end": {"line": 0, "character": 7 + len("lonely_module")}},
          f"E147's place: {d[0]}")
    check("module `lonely_module` is used by no edition" in d[0]["message"] and
          "1 rule never runs" in d[0]["message"], f"E147's message: {d[0]}")
    s.change(uri, text.split("\n", 1)[1], 2)
    check(s.diagnostics(uri) == [], "without its module line the draft is clean")
    rc, _ = s.finish()
    check(rc == 0, f"status {rc}")


@case
def citation_outside_the_edition():
    """Hover on a citation ID lists the rules that cite it outside the active edition too,
    marked (the fresh review of issue 12: an expansion's rule, its module not in all_books,
    was answered "cited by: no rule" while the rule under the cursor cites it). The draft
    declares its own module, which no bundled edition uses, a source and a rule citing it."""
    text = ('module draft_module;\n'
            'source "DRAFT.1" = "Draft book 1";\n'
            'query draft_q(n: int) -> int combine first default 0;\n'
            'rule draft_q.one cite "DRAFT.1" answer 1;\n')
    uri = "file:///tmp/citation_outside_the_edition.hon"
    s = Server()
    s.initialize()
    s.open(uri, text)
    d = s.diagnostics(uri)
    # it builds; its module being in no edition is the warning E147 (case unused_module)
    check([x["code"] for x in d] == ["E147"] and d[0]["severity"] == 2, f"the draft builds: {d}")
    line, ch = find(text, 'cite "DRAFT.1"')
    value = s.at("textDocument/hover", uri, line, ch + len('cite "DR'))["result"]
    value = value["contents"]["value"]
    check("`draft_q.one`" in value and "not in edition all_books" in value and
          "no rule" not in value, f"hover on the ID: {value!r}")
    rc, _ = s.finish()
    check(rc == 0, f"status {rc}")


@case
def checkout_copy_in_place():
    """An installed `hon lsp` (its data directory's rules loaded, played here by HON_DATADIR
    pointing at a copy of this tree's rules and expansions) opening a source checkout's
    rules/terrain.hon checks it in the place of its installed twin, as it does a loaded file
    itself: no E110 for each declaration (the fresh review of issue 12, defect 1)."""
    path = os.path.join(SRC, "rules", "terrain.hon")
    text = open(path, encoding="utf-8").read()
    with tempfile.TemporaryDirectory() as data:
        for sub in ("rules", "expansions"):
            shutil.copytree(os.path.join(SRC, sub), os.path.join(data, sub))
        old = os.environ.get("HON_DATADIR")
        os.environ["HON_DATADIR"] = data
        try:
            s = Server()
        finally:
            if old is None:
                del os.environ["HON_DATADIR"]
            else:
                os.environ["HON_DATADIR"] = old
        s.initialize()
        uri = uri_of(path)
        s.open(uri, text)
        d = s.diagnostics(uri)
        check(d == [], f"the checkout's copy checks clean in its twin's place: {d[:3]}")
        rc, _ = s.finish()
        check(rc == 0, f"status {rc}")


if CASE not in CASES:
    fail(f"no case named {CASE}")
CASES[CASE]()
print(f"ok {CASE}")
