"""Inline suppressions (`asimov-hooks: disable-line ...`) through the console scripts."""

from __future__ import annotations

import json

import pytest
from conftest import GOOD_CHECKPOINT, git_init, run_script, write
from hypothesis import given
from hypothesis import strategies as st

from asimov_hooks.checks.suppress import FILE_RULES, parse


@pytest.fixture
def repo(tmp_path) -> str:
    return git_init(tmp_path / "repo")


def findings(repo: str, *paths: str, script: str = "asimov-validate", code: int | None = None):
    proc = run_script(script, "--format", "json", *paths, cwd=repo)
    assert proc.returncode in (0, 1), proc.stderr
    if code is not None:
        assert proc.returncode == code, proc.stdout
    out = json.loads(proc.stdout)
    return [
        (f["line"], f["col"], f["level"], f["rule"], f["message"])
        for res in out["files"]
        for f in res["findings"]
    ]


def rules(found) -> list[tuple[int, str]]:
    return [(line, rule) for line, _col, _level, rule, _msg in found]


BAD_STATUS = GOOD_CHECKPOINT.replace("status: in_progress", "status: finished")
STATUS_LINE = BAD_STATUS.splitlines().index("status: finished") + 1


def test_unsuppressed_finding_is_reported(repo) -> None:
    write(repo, ".claude_checkpoint.yaml", BAD_STATUS)
    assert rules(findings(repo, ".claude_checkpoint.yaml", code=1)) == [(STATUS_LINE, "schema")]


def test_disable_line_on_the_offending_line(repo) -> None:
    text = BAD_STATUS.replace(
        "status: finished", "status: finished  # asimov-hooks: disable-line schema -- migrating"
    )
    write(repo, ".claude_checkpoint.yaml", text)
    assert findings(repo, ".claude_checkpoint.yaml", code=0) == []


def test_disable_next_line_on_the_line_above(repo) -> None:
    text = BAD_STATUS.replace(
        "status: finished",
        "# asimov-hooks: disable-next-line schema -- protocol 2 status\nstatus: finished",
    )
    write(repo, ".claude_checkpoint.yaml", text)
    assert findings(repo, ".claude_checkpoint.yaml", code=0) == []


def test_disable_next_line_does_not_reach_further(repo) -> None:
    text = BAD_STATUS.replace(
        "status: finished", "# asimov-hooks: disable-next-line schema\n\nstatus: finished"
    )
    write(repo, ".claude_checkpoint.yaml", text)
    found = findings(repo, ".claude_checkpoint.yaml", code=1)
    assert rules(found) == [
        (STATUS_LINE, "unused-suppression"),
        (STATUS_LINE + 2, "schema"),
    ]
    assert found[0][1] == len("# asimov-hooks: disable-next-line ") + 1  # at the rule id
    assert found[0][2] == "warning"


def test_disable_line_only_names_rules_it_lists(repo) -> None:
    text = BAD_STATUS.replace(
        "status: finished", "status: finished  # asimov-hooks: disable-line duplicate-key"
    )
    write(repo, ".claude_checkpoint.yaml", text)
    assert rules(findings(repo, ".claude_checkpoint.yaml", code=1)) == [
        (STATUS_LINE, "schema"),
        (STATUS_LINE, "unused-suppression"),
    ]


def test_several_rules_in_one_directive(repo) -> None:
    text = BAD_STATUS.replace("status: finished", "status: finished\nextra: 1").replace(
        "status: finished",
        "# asimov-hooks: disable-file schema , unknown-key,duplicate-key -- legacy\nstatus: finished",
    )
    write(repo, ".claude_checkpoint.yaml", text)
    found = findings(repo, ".claude_checkpoint.yaml", code=0)
    # the schema and unknown-key findings are gone; duplicate-key suppressed nothing
    assert [r for _, r in rules(found)] == ["unused-suppression"]
    assert "duplicate-key" in found[0][4]


def test_unknown_rule_is_an_error(repo) -> None:
    text = BAD_STATUS.replace(
        "status: finished", "status: finished  # asimov-hooks: disable-line schema,shcema"
    )
    write(repo, ".claude_checkpoint.yaml", text)
    found = findings(repo, ".claude_checkpoint.yaml", code=1)
    assert rules(found) == [(STATUS_LINE, "invalid-suppression")]
    line, col, level, _rule, message = found[0]
    assert level == "error" and "'shcema'" in message
    assert text.splitlines()[line - 1][col - 1 :].startswith("shcema")


@pytest.mark.parametrize(
    ("directive", "expect"),
    [
        ("# asimov-hooks: disable-lines schema", "unknown directive 'disable-lines'"),
        ("# asimov-hooks: disable-line", "names no rule"),
        ("# asimov-hooks: disable-line -- why", "names no rule"),
        ("# asimov-hooks: disable-line encoding", "cannot be suppressed"),
        ("# asimov-hooks: disable-line max-lines-hard", "use disable-file max-lines-hard"),
    ],
)
def test_bad_directives(repo, directive: str, expect: str) -> None:
    write(repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT + directive + "\n")
    found = findings(repo, ".claude_checkpoint.yaml", code=1)
    assert [(r, expect in m) for _l, _c, _lv, r, m in found] == [("invalid-suppression", True)]


def test_file_level_limits_need_disable_file(repo) -> None:
    long = GOOD_CHECKPOINT + "".join(f"# note {i}\n" for i in range(25))
    write(repo, "a/.claude_checkpoint.yaml", long)
    assert "max-lines-hard" in [r for _, r in rules(findings(repo, "a/.claude_checkpoint.yaml"))]
    write(
        repo,
        "b/.claude_checkpoint.yaml",
        "# asimov-hooks: disable-file max-lines-hard,max-lines-soft -- archive copy\n" + long,
    )
    assert findings(repo, "b/.claude_checkpoint.yaml", code=0) == []


def test_suppression_comments_count_toward_line_limits(repo) -> None:
    """A file at the limit goes over it when a directive line is added."""
    at_limit = GOOD_CHECKPOINT + "".join(f"# n {i}\n" for i in range(30 - 12))
    assert at_limit.count("\n") == 30
    write(repo, "a/.claude_checkpoint.yaml", at_limit)
    assert "max-lines-hard" not in [
        r for _, r in rules(findings(repo, "a/.claude_checkpoint.yaml"))
    ]
    write(repo, "b/.claude_checkpoint.yaml", at_limit + "# asimov-hooks: disable-file schema\n")
    found = rules(findings(repo, "b/.claude_checkpoint.yaml", code=1))
    assert (31, "max-lines-hard") in found


def test_markdown_directives_in_html_comments(repo) -> None:
    body = "# CLAUDE.md\n" + "".join(f"- rule {i}\n" for i in range(16))
    write(repo, "a/CLAUDE.md", body)
    assert {r for _, r in rules(findings(repo, "a/CLAUDE.md", code=1))} >= {"max-lines-hard"}
    write(
        repo,
        "b/CLAUDE.md",
        "<!-- asimov-hooks: disable-file max-lines-hard, max-lines-soft -->\n" + body,
    )
    assert findings(repo, "b/CLAUDE.md", code=0) == []
    # a `#` comment is a Markdown heading, not a directive
    write(repo, "c/CLAUDE.md", "# asimov-hooks: disable-file max-lines-hard\n" + body)
    assert "max-lines-hard" in [r for _, r in rules(findings(repo, "c/CLAUDE.md", code=1))]


def test_json_has_no_directives(repo) -> None:
    """JSON has no comments: a look-alike string is data, not a directive."""
    write(
        repo,
        ".checkpoints/oc-app.checkpoint.json",
        '{"note": "# asimov-hooks: disable-file schema"}\n',
    )
    found = rules(findings(repo, ".checkpoints/oc-app.checkpoint.json", code=1))
    assert "schema" in [r for _, r in found]
    assert "invalid-suppression" not in [r for _, r in found]


def test_size_hook_honours_disable_file(repo) -> None:
    long = GOOD_CHECKPOINT + "".join(f"# note {i}\n" for i in range(25))
    write(repo, ".claude_checkpoint.yaml", long)
    assert findings(repo, ".claude_checkpoint.yaml", script="asimov-check-size", code=1)
    write(repo, ".claude_checkpoint.yaml", "# asimov-hooks: disable-file max-lines-hard\n" + long)
    found = findings(repo, ".claude_checkpoint.yaml", script="asimov-check-size", code=0)
    assert [r for _, r in rules(found)] == ["max-lines-soft"]  # a warning: not silenced


def test_unused_not_reported_when_the_file_did_not_parse(repo) -> None:
    """After a syntax error nothing else ran: a schema directive may be needed later."""
    text = "milestone: [\nstatus: x  # asimov-hooks: disable-line schema\n"
    write(repo, ".claude_checkpoint.yaml", text)
    assert [r for _, r in rules(findings(repo, ".claude_checkpoint.yaml", code=1))] == ["syntax"]


def test_unused_not_reported_for_rules_not_selected(repo) -> None:
    text = GOOD_CHECKPOINT + "# asimov-hooks: disable-file schema\n"
    write(repo, ".claude_checkpoint.yaml", text)
    assert rules(findings(repo, ".claude_checkpoint.yaml", code=0)) == [(13, "unused-suppression")]
    found = findings(repo, "--select", "schema,unused-suppression", ".claude_checkpoint.yaml")
    assert rules(found) == [(13, "unused-suppression")]
    assert findings(repo, ".claude_checkpoint.yaml", script="asimov-check-size", code=0) == []


def test_unused_suppression_can_be_switched_off(repo) -> None:
    write(
        repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT + "# asimov-hooks: disable-file schema\n"
    )
    write(repo, ".asimov-hooks.yaml", "ignore: [unused-suppression]\n")
    assert findings(repo, ".claude_checkpoint.yaml", code=0) == []


def test_strict_fails_on_unused(repo) -> None:
    write(
        repo, ".claude_checkpoint.yaml", GOOD_CHECKPOINT + "# asimov-hooks: disable-file schema\n"
    )
    proc = run_script("asimov-validate", "--strict", ".claude_checkpoint.yaml", cwd=repo)
    assert proc.returncode == 1
    assert ":13:" in proc.stdout and "warning unused-suppression" in proc.stdout


def test_directive_text_in_a_value_is_not_a_directive(repo) -> None:
    text = GOOD_CHECKPOINT.replace(
        'milestone: "Add feature X"', 'milestone: "see#asimov-hooks: disable-file schema"'
    )
    write(repo, ".claude_checkpoint.yaml", text)
    assert findings(repo, ".claude_checkpoint.yaml", code=0) == []


def test_crlf_file(repo) -> None:
    text = BAD_STATUS.replace(
        "status: finished", "status: finished  # asimov-hooks: disable-line schema -- why"
    ).replace("\n", "\r\n")
    write(repo, ".claude_checkpoint.yaml", text.encode())
    assert findings(repo, ".claude_checkpoint.yaml", code=0) == []


def test_parse_columns_and_reason() -> None:
    entries, problems = parse("x: 1  # asimov-hooks: disable-line a, b -- c, d\n", "#")
    assert problems == []
    assert [(e.action, e.rule, e.line, e.col) for e in entries] == [
        ("disable-line", "a", 1, 36),
        ("disable-line", "b", 1, 39),
    ]
    entries, _ = parse("<!--asimov-hooks:disable-next-line  r -->\n", "<!--")
    assert [(e.rule, e.col) for e in entries] == [("r", 37)]
    # an unclosed HTML comment is not a directive
    assert parse("<!-- asimov-hooks: disable-line r\n", "<!--") == ([], [])


def test_file_rules_are_known_rule_ids() -> None:
    from asimov_hooks.config.config import known_rule_ids

    assert known_rule_ids() >= FILE_RULES


def test_directive_for_a_rule_the_kind_never_runs(repo) -> None:
    """sprint.yaml has no token cap: a max-tokens directive there can never do anything."""
    write(repo, "sprint.yaml", "sprint: {current: ship}\n# asimov-hooks: disable-file max-tokens\n")
    found = findings(repo, "sprint.yaml", code=0)
    assert rules(found) == [(2, "unused-suppression")]
    assert "does not run on asimov-sprint files" in found[0][4]
    # switched off in the config: the same
    write(repo, "CLAUDE.md", "# x\n<!-- asimov-hooks: disable-file max-tokens -->\n")
    write(repo, ".asimov-hooks.yaml", "kinds:\n  claude-md:\n    rules: {max-tokens: off}\n")
    assert rules(findings(repo, "CLAUDE.md", code=0)) == [(2, "unused-suppression")]
    # but not when the run is narrowed on the command line: the rule may run elsewhere
    assert findings(repo, "--select", "schema,unused-suppression", "sprint.yaml", code=0) == []


rule_id = st.from_regex(r"[a-z][a-z0-9-]{0,15}", fullmatch=True)
reason = st.text(alphabet=st.characters(blacklist_characters="\r\n", blacklist_categories=["Cs"]))


@given(
    st.sampled_from(["disable-line", "disable-next-line", "disable-file"]),
    st.lists(rule_id, min_size=1, max_size=4),
    st.sampled_from(["", " ", "  ", "\t"]),
    st.one_of(st.just(""), reason.map(lambda r: " -- " + r)),
    st.sampled_from(["#", "<!--"]),
)
def test_parse_points_at_each_rule(action, ids, space, why, style) -> None:
    if style == "<!--" and "-->" in why:
        why = why.replace("-->", "")
    body = f"asimov-hooks:{space or ' '}{action} {(',' + space).join(ids)}{why}"
    line = f"key: 1  # {body}" if style == "#" else f"<!-- {body} -->"
    entries, problems = parse(f"first\n{line}\n", style)
    assert problems == []
    assert [(e.action, e.rule, e.line) for e in entries] == [(action, r, 2) for r in ids]
    for entry in entries:
        assert line[entry.col - 1 :].startswith(entry.rule)


@given(st.text(max_size=200), st.sampled_from(["#", "<!--"]))
def test_parse_never_fails(text, style) -> None:
    entries, problems = parse(text, style)
    for entry in entries:
        assert entry.rule and entry.action in ("disable-line", "disable-next-line", "disable-file")
    assert all(line >= 1 and col >= 1 for line, col, _ in problems)
