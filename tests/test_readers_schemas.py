"""What the readers and the schema evaluators must agree on with the tools users know.

Anchors in each draft's own form, a new kind's schema applied, non-string keys seen as
JSON Schema sees them (strings, in their YAML text) by both evaluators, complex keys
refused, tabs read as libyaml reads them. Each runs the real command in a real git
repository."""

from __future__ import annotations

import json

import pytest
from conftest import git_init, run_script, write

CP = ".claude_checkpoint.yaml"
USER_KIND = (
    "kinds:\n  notes:\n    files: ['notes/*.yaml']\n    format: yaml\n"
    "    schema: ./schemas/notes.json\n"
)


def _validate(repo, *args: str):
    run = run_script("asimov-validate", *args, cwd=repo)
    assert "internal error" not in run.stdout + run.stderr, run
    assert "Traceback" not in run.stderr, run
    return run


# ------------------------------------------------------------- anchors per draft
ANCHORED = {
    # draft: (identifier keyword, where the definitions live)
    "draft-04": ("id", "definitions"),
    "draft-06": ("$id", "definitions"),
    "draft-07": ("$id", "definitions"),
}


@pytest.mark.parametrize("draft", ANCHORED)
def test_an_older_drafts_location_independent_identifier_is_an_anchor(tmp_path, draft) -> None:
    ident, defs = ANCHORED[draft]
    schema = {
        "$schema": f"http://json-schema.org/{draft}/schema#",
        defs: {"needs": {ident: "#cp", "required": ["milestone"]}},
        "allOf": [{"$ref": "#cp"}],
    }
    git_init(tmp_path)
    write(tmp_path, ".asimov-hooks.yaml", "kinds:\n  asimov-checkpoint:\n    schema: ./s.json\n")
    write(tmp_path, "s.json", json.dumps(schema))
    write(tmp_path, CP, "milestone: m\nstatus: done\n")
    run = _validate(tmp_path, "--select", "schema", CP)
    assert run.returncode == 0, run
    write(tmp_path, CP, "status: done\n")
    run = _validate(tmp_path, "--select", "schema", CP)
    assert run.returncode == 1 and "milestone" in run.stdout, run


def test_anchors_follow_the_declared_draft() -> None:
    from asimov_hooks.minischema import References

    # 2020-12 names anchors with $anchor (and $dynamicAnchor), not with an $id fragment
    new = {"$defs": {"a": {"$anchor": "x"}, "b": {"$dynamicAnchor": "y"}}}
    refs = References(new)
    assert refs.resolves("#x") and refs.resolves("#y")
    old = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "definitions": {"a": {"$anchor": "x"}},
    }
    assert not References(old).resolves("#x")
    # up to draft-07 an identifier beside $ref is ignored, as those drafts say
    beside = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "definitions": {"a": {"$id": "#x", "$ref": "#/definitions/b"}, "b": {}},
    }
    assert not References(beside).resolves("#x")
    # draft-04's keyword is `id`; `$id` there is no identifier
    four = {
        "$schema": "http://json-schema.org/draft-04/schema#",
        "definitions": {"a": {"$id": "#x"}},
    }
    assert not References(four).resolves("#x")


# ------------------------------------------------------------- new kinds' schemas
def test_a_new_kinds_schema_is_applied_without_naming_the_rule(tmp_path) -> None:
    git_init(tmp_path)
    write(tmp_path, ".asimov-hooks.yaml", USER_KIND)
    write(tmp_path, "schemas/notes.json", {"type": "object", "required": ["title"]})
    write(tmp_path, "notes/a.yaml", "body: x\n")
    write(tmp_path, "notes/b.yaml", "title: t\n")
    run = _validate(tmp_path, "-v", "notes/a.yaml", "notes/b.yaml")
    assert run.returncode == 1, run
    assert "notes/a.yaml:1:1: error schema missing required property 'title'" in run.stdout, run
    assert "notes/b.yaml: valid" in run.stdout, run
    # the kind may still lower or switch off the rule
    write(tmp_path, ".asimov-hooks.yaml", USER_KIND + "    rules: {schema: warning}\n")
    run = _validate(tmp_path, "-v", "notes/a.yaml")
    assert run.returncode == 0 and "warning schema" in run.stdout, run
    write(tmp_path, ".asimov-hooks.yaml", USER_KIND + "    rules: {schema: off}\n")
    run = _validate(tmp_path, "-v", "notes/a.yaml")
    assert run.returncode == 0 and "notes/a.yaml: valid" in run.stdout, run


# ------------------------------------------------------------- tabs
@pytest.mark.parametrize(
    "text",
    ["milestone:\tM\nstatus: done\n", "milestone: M\nstatus:\tdone\nnotes:\t|\n  a\n  \tb\n"],
    ids=["tab-after-colon", "tab-before-block-scalar"],
)
def test_a_tab_after_a_colon_is_read_as_libyaml_reads_it(tmp_path, text: str) -> None:
    git_init(tmp_path)
    write(tmp_path, CP, text)
    run = _validate(tmp_path, "-v", CP)
    assert run.returncode == 0 and f"{CP}: valid" in run.stdout, run
    run = run_script("asimov-hooks", "trim", CP, cwd=tmp_path)
    assert run.returncode == 0, run
    with open(tmp_path / CP, encoding="utf-8") as fh:
        assert fh.read() == text  # nothing to trim: untouched


def test_tab_indentation_stays_refused(tmp_path) -> None:
    git_init(tmp_path)
    write(tmp_path, CP, "milestone: M\nnotes:\n\tx: 1\n")
    run = _validate(tmp_path, CP)
    assert run.returncode == 1 and f"{CP}:3:1: error syntax" in run.stdout, run


# ------------------------------------------------------------- non-string keys
KEYED = "1: 5\n2020-01-01: x\nnull: 3\n1.5: y\n? [a, b]\n: z\nnested: {2: two, 2021-02-03: d}\n"
KEY_SCHEMAS = {
    "properties": {"properties": {"1": {"type": "string"}, "2020-01-01": {"type": "integer"}}},
    "required": {"required": ["1", "2020-01-01", "null", "1.5", "[a, b]", "missing"]},
    "closed": {"properties": {"1": {}, "null": {}}, "additionalProperties": False},
    "nested": {"properties": {"nested": {"properties": {"2": {"const": "two"}}}}},
    "const": {"properties": {"nested": {"const": {"2": "two", "2021-02-03": "d"}}}},
    "enum": {"properties": {"nested": {"enum": [{"2": "two", "2021-02-03": "e"}]}}},
    "extra-schema": {"additionalProperties": {"type": "integer"}},
}


@pytest.mark.parametrize("name", KEY_SCHEMAS)
def test_both_evaluators_see_keys_as_their_yaml_text(name: str) -> None:
    from asimov_hooks.minischema import Evaluator, unsupported_keywords
    from asimov_hooks.minischema.fallback import JsonschemaEvaluator
    from asimov_hooks.readers.loaders import load_yaml

    schema = KEY_SCHEMAS[name]
    assert not unsupported_keywords(schema)
    data = load_yaml(KEYED).data
    ours = Evaluator(schema).errors(data)
    theirs = JsonschemaEvaluator(schema).errors(data)
    assert bool(ours) == bool(theirs), (ours, theirs)
    if name != "closed":  # jsonschema reports extra keys on the object, not on each key
        assert sorted(e.path for e in ours) == sorted(e.path for e in theirs), (ours, theirs)
    for err in ours + theirs:  # paths and messages hold the keys' text, never a repr
        assert all(isinstance(p, (str, int)) and not isinstance(p, bool) for p in err.path)
        assert "datetime" not in err.message and "ordereddict" not in err.message


def test_non_string_keys_are_shown_and_placed_as_yaml_shows_them(tmp_path) -> None:
    git_init(tmp_path)
    write(tmp_path, ".asimov-hooks.yaml", USER_KIND)
    schema = {
        "properties": {"1": {"type": "string"}, "nested": {"type": "string"}},
        "additionalProperties": {"type": "integer"},
    }
    write(tmp_path, "schemas/notes.json", schema)
    write(tmp_path, "notes/a.yaml", "1: 5\n2020-01-01: x\nnested: {2021-02-03: d}\n")
    run = _validate(tmp_path, "notes/a.yaml")
    assert run.returncode == 1, run
    assert "notes/a.yaml:1:4: error schema 1: 5 is not of type string" in run.stdout, run
    assert "notes/a.yaml:2:13: error schema 2020-01-01: 'x' is not of type integer" in run.stdout
    assert "nested: {'2021-02-03': 'd'} is not of type string" in run.stdout, run
    assert "datetime" not in run.stdout and "ordereddict" not in run.stdout, run


def test_unknown_key_names_a_non_string_key_by_its_text(tmp_path) -> None:
    git_init(tmp_path)
    write(tmp_path, CP, "milestone: M\nstatus: done\n2020-01-01: x\n")
    run = _validate(tmp_path, "--select", "unknown-key", CP)
    assert f"{CP}:3:1: warning unknown-key unknown key '2020-01-01'" in run.stdout, run


# ------------------------------------------------------------- complex keys
@pytest.mark.parametrize(
    ("text", "line", "col"),
    [
        ("milestone: M\n{{ var }}: x\n", 2, 1),
        ("milestone: M\nnotes:\n  ? {{ var }}\n  : x\n", 3, 5),
        ("milestone: M\nnotes: {{ var }}\n", 2, 9),
    ],
    ids=["flow-key", "explicit-key", "value"],
)
def test_a_mapping_as_a_key_is_refused_with_a_placed_finding(tmp_path, text, line, col) -> None:
    git_init(tmp_path)
    write(tmp_path, CP, text)
    run = _validate(tmp_path, CP)
    assert run.returncode == 1, run
    assert f"{CP}:{line}:{col}: error syntax invalid YAML: a mapping cannot be a key" in run.stdout
    run = run_script("asimov-hooks", "trim", CP, cwd=tmp_path)
    assert run.returncode != 0 and "a mapping cannot be a key" in run.stdout + run.stderr, run


def test_every_reader_refuses_a_mapping_as_a_key_alike() -> None:
    from asimov_hooks.merge.yaml_merge import ParseError
    from asimov_hooks.merge.yaml_merge import load as merge_load
    from asimov_hooks.readers.loaders import YAMLProblem, load_yaml, load_yaml_plain
    from asimov_hooks.trim.parsing import Refused, parse

    text = "milestone: M\n{a: 1}: x\n"
    for read, error in (
        (load_yaml, YAMLProblem),
        (load_yaml_plain, YAMLProblem),
        (parse, Refused),
        (merge_load, ParseError),
    ):
        with pytest.raises(error) as caught:
            read(text)
        assert "a mapping cannot be a key" in str(caught.value), read
    # a sequence as a key is what ruamel's safe loader reads too (a tuple): kept
    assert load_yaml("? [a, b]\n: x\n").data == {("a", "b"): "x"}


# ------------------------------------------------------------- trim and aliases
def _items(*names: str) -> str:
    return "".join(f"  - {name}\n" for name in names)


def test_trim_keeps_an_alias_whose_anchor_stays(tmp_path) -> None:
    git_init(tmp_path)
    text = "milestone: &m Ship it\nstatus: done\ncompleted:\n" + _items(
        "one", "*m", "three", "four", "five", "six", "*m"
    )
    text += "next_steps:\n  - x\n"
    write(tmp_path, CP, text)
    run = _validate(tmp_path, "-v", CP)
    assert "run `asimov-hooks trim`" in run.stdout, run
    run = run_script("asimov-hooks", "trim", CP, cwd=tmp_path)
    assert "removed 2 of 7 items" in run.stdout, run
    with open(tmp_path / CP, encoding="utf-8") as fh:
        trimmed = fh.read()
    assert (
        trimmed
        == "milestone: &m Ship it\nstatus: done\ncompleted:\n"
        + _items("three", "four", "five", "six", "*m")
        + "next_steps:\n  - x\n"
    )
    with open(tmp_path / ".claude_checkpoint.archive.yaml", encoding="utf-8") as fh:
        archived = fh.read()
    assert "- one" in archived and "Ship it" in archived, archived  # the alias's value
    run = _validate(tmp_path, "-v", CP)
    assert run.returncode == 0 and f"{CP}: valid" in run.stdout, run


def test_trim_refuses_to_cut_an_anchor_a_kept_item_refers_to(tmp_path) -> None:
    git_init(tmp_path)
    text = "milestone: M\nstatus: done\ncompleted:\n" + _items(
        "&a one", "two", "three", "four", "five", "six", "*a"
    )
    write(tmp_path, CP, text)
    run = run_script("asimov-hooks", "trim", CP, cwd=tmp_path)
    assert run.returncode == 1, run
    assert "line 4: the part trimming removes holds the anchor &a" in run.stdout + run.stderr
    with open(tmp_path / CP, encoding="utf-8") as fh:
        assert fh.read() == text
    # and validate does not send the user to a trim that refuses
    run = _validate(tmp_path, CP)
    assert run.returncode == 1 and "completed: has 7 items, more than 5" in run.stdout, run
    assert "run `asimov-hooks trim`" not in run.stdout, run
    assert "`asimov-hooks trim` cannot fix this file (line 4: the part" in run.stdout, run
    assert "remove items of completed by hand" in run.stdout, run


def test_an_alias_in_a_flow_list_is_still_refused_and_not_suggested(tmp_path) -> None:
    git_init(tmp_path)
    text = "milestone: &m M\nstatus: done\ncompleted: [a, b, c, d, e, f, *m]\n"
    write(tmp_path, CP, text)
    run = run_script("asimov-hooks", "trim", CP, cwd=tmp_path)
    assert run.returncode == 1 and "is an alias (*name) in a [...] list" in run.stdout + run.stderr
    run = _validate(tmp_path, CP)
    assert "run `asimov-hooks trim`" not in run.stdout and "cannot fix this file" in run.stdout


# ------------------------------------------------------------- --format-assertion
FORMAT_SAMPLES = {
    # format: (values it accepts, values it refuses)
    "date-time": (
        ["2026-01-15T10:30:00Z", "2026-01-15t10:30:00.25+02:00", "2016-12-31T23:59:60Z"],
        [
            "2026-01-15 10:30:00Z",
            "2026-01-15T10:30:00",
            "2026-02-30T10:00:00Z",
            "2026-01-15T10:59:60Z",
        ],
    ),
    "date": (
        ["2026-01-15", "2024-02-29"],
        ["2026-1-15", "2025-02-29", "15/01/2026", "2026-01-15x"],
    ),
    "time": (["10:30:00Z", "23:59:60Z", "01:29:60+01:30"], ["10:30:00", "24:00:00Z", "10:60:00Z"]),
    "duration": (["P1Y2M3DT4H5M6S", "PT30M", "P2W", "P1D"], ["P", "PT", "P1Y2W", "PT1D", "P1S"]),
    "email": (
        ["a.b@example.com", '"a b"@example.com', "x@[192.0.2.1]"],
        ["nobody", ".a@x.com", "a..b@x.com", "a@-x.com"],
    ),
    "hostname": (
        ["example.com", "a-b.c", "xn--bcher-kva.example"],
        ["-a.com", "a_b.com", "ab--cd.com", "a." + "b" * 64],
    ),
    "ipv4": (["10.0.0.1", "255.255.255.255"], ["256.0.0.1", "01.2.3.4", "1.2.3", "১.2.3.4"]),
    "ipv6": (
        ["::1", "2001:db8::8a2e:370:7334", "::ffff:192.0.2.1"],
        ["12345::", "fe80::1%eth0", " ::1", "1:2:3:4:5:6:7:8:9"],
    ),
    "uri": (
        ["https://example.com/a?b=c#d", "urn:isbn:0451450523", "http://[::1]:80/"],
        ["/relative", "http://a b", "http://x:port/", "https://é.com"],
    ),
    "uri-reference": (
        ["/relative", "../a#b", "https://example.com", ""],
        ["\\\\bad", "1:b", "/[x]"],
    ),
    "uuid": (
        ["0f8fad5b-d9cb-469f-a165-70867728950e"],
        ["0f8fad5bd9cb469fa16570867728950e", "0f8fad5b-d9cb-469f-a165-7086772895"],
    ),
    "json-pointer": (["", "/a/0", "/a~1b/~0"], ["a", "/a~2"]),
    "regex": (["^a+$", "[a-z]{2,}"], ["(", "a{2,1}"]),
}


@pytest.mark.parametrize("name", FORMAT_SAMPLES)
def test_each_asserted_format_accepts_and_refuses(name: str) -> None:
    from asimov_hooks.minischema.formats import CHECKS, conforms

    assert name in CHECKS
    good, bad = FORMAT_SAMPLES[name]
    assert [value for value in good if not conforms(name, value)] == []
    assert [value for value in bad if conforms(name, value)] == []
    assert conforms(name, 12) and conforms(name, None)  # only strings have a format
    assert conforms("unknown-format", "anything")


def test_format_is_an_annotation_unless_asserted_in_both_evaluators() -> None:
    import datetime

    from asimov_hooks.minischema import Evaluator, compile_schema
    from asimov_hooks.minischema.fallback import JsonschemaEvaluator

    schema = {"properties": {f: {"format": f} for f in FORMAT_SAMPLES}}
    assert isinstance(compile_schema(schema, None, True), Evaluator)  # in-house
    bad = {f: FORMAT_SAMPLES[f][1][0] for f in FORMAT_SAMPLES}
    good = {f: FORMAT_SAMPLES[f][0][0] for f in FORMAT_SAMPLES}
    for evaluator in (Evaluator, JsonschemaEvaluator):
        assert evaluator(schema).errors(bad) == []  # off: an annotation
        found = evaluator(schema, None, True).errors(bad)
        assert sorted(e.path for e in found) == sorted((f,) for f in FORMAT_SAMPLES), found
        assert {e.keyword for e in found} == {"format"}
        assert evaluator(schema, None, True).errors(good) == []
        # a YAML date or timestamp is its ISO 8601 text
        when = {"date": datetime.date(2026, 1, 15), "date-time": datetime.date(2026, 1, 15)}
        assert [e.path for e in evaluator(schema, None, True).errors(when)] == [("date-time",)]


def _yaml_keeps_offsets() -> bool:
    from ruamel.yaml import YAML

    return YAML(typ="safe").load("a: 2026-01-15T10:30:00Z")["a"].tzinfo is not None


def test_format_assertion_on_the_command_line(tmp_path) -> None:
    git_init(tmp_path)
    write(tmp_path, ".asimov-hooks.yaml", USER_KIND)
    props = {"when": {"format": "date-time"}, "mail": {"format": "email"}, "id": {"format": "uuid"}}
    write(tmp_path, "notes/a.yaml", "when: 2026-01-15 10:30:00\nmail: nobody\nid: 123\n")
    # an unquoted timestamp with its offset, where the installed ruamel.yaml keeps the offset
    # (0.18.0 drops it: docs/schemas.md); a quoted date-time everywhere else
    when = "2026-01-15T10:30:00Z" if _yaml_keeps_offsets() else '"2026-01-15T10:30:00Z"'
    write(tmp_path, "notes/b.yaml", f"when: {when}\nmail: a@example.com\nid: 123\n")
    said = []
    for schema in ({"properties": props}, {"properties": props, "maxProperties": 9}):
        write(tmp_path, "schemas/notes.json", schema)  # minischema, then the jsonschema fallback
        run = _validate(tmp_path, "-v", "notes/a.yaml", "notes/b.yaml")
        assert run.returncode == 0, run  # off by default, as draft 2020-12 says
        run = _validate(tmp_path, "-v", "--format-assertion", "notes/a.yaml", "notes/b.yaml")
        assert run.returncode == 1 and "notes/b.yaml: valid" in run.stdout, run
        lines = run.stdout.splitlines()
        places = [line.split(" error ")[0] for line in lines if " error schema " in line]
        assert places == ["notes/a.yaml:1:7:", "notes/a.yaml:2:7:"], run
        said.append(places)
    assert said[0] == said[1]
    run = run_script("asimov-hooks", "validate", "--format-assertion", "notes/a.yaml", cwd=tmp_path)
    assert run.returncode == 1 and "mail: 'nobody' is not a" in run.stdout, run


def test_the_line_limit_does_not_suggest_a_trim_that_refuses(tmp_path) -> None:
    git_init(tmp_path)
    names = ["&a one"] + [f"item {n}" for n in range(2, 20)] + ["*a"]
    write(tmp_path, CP, "milestone: M\nstatus: done\ncompleted:\n" + _items(*names))
    run = _validate(tmp_path, CP)
    assert "warning max-lines-soft 23 lines" in run.stdout, run
    assert "run `asimov-hooks trim`" not in run.stdout, run
    assert "`asimov-hooks trim` cannot shorten this file (line 4: the part" in run.stdout, run
