"""`asimov-hooks stats` and the record the agent hooks keep for it: a scripted Claude
Code session through the hooks (each event run as the agent runs it, in a real git
repository) leaves a record of numbers only, and `stats` reports it back exactly."""

from __future__ import annotations

import json
import os
import time
from html.parser import HTMLParser

import pytest
from agent_support import answer, fixture, run_event, work
from conftest import GOOD_CHECKPOINT, call_script, git, git_init, write

from asimov_hooks.measure import count_lines

SESSION = "abc123de-4567-89ab-cdef-0123456789ab"
CHECKPOINT = ".claude_checkpoint.yaml"
RECORD = os.path.join(".git", "asimov-hooks", "stats.log")
# 12 lines: within every limit
SMALL = GOOD_CHECKPOINT
# 12 + 10 completed items = 22 lines: over the 20-line soft limit and the list's cap
LONG = GOOD_CHECKPOINT.replace(
    "completed:\n", "completed:\n" + "".join(f'  - "Task {i}: older work"\n' for i in range(10))
)


def make_repo(tmp_path, stats: bool = True) -> str:
    repo = git_init(tmp_path / "repo")
    config = "agent:\n  turn-threshold: 30\n" + ("" if stats else "  stats: false\n")
    write(repo, ".asimov-hooks.yaml", config)
    write(repo, ".gitignore", ".claude_checkpoint.yaml\n.claude_checkpoint.archive.yaml\n")
    write(repo, "warmup.yaml", "identity:\n  project: demo\n")
    git(repo, "add", "warmup.yaml")
    return repo


def event(repo: str, name: str, **fields: object) -> dict | None:
    return answer(run_event("claude", fixture("claude", name, repo, **fields), repo))


def agent_writes(repo: str, content: str) -> str:
    """The agent's Write of the checkpoint: PreToolUse, the write itself (the content
    the hook handed back, if it changed it), PostToolUse of the same tool call. What
    was written."""
    global CALLS
    CALLS += 1
    call = f"toolu_stats{CALLS:04d}"
    out = event(repo, "pre_tool_use_write", tool_use_id=call, **{"tool_input.content": content})
    updated = (out or {}).get("hookSpecificOutput", {}).get("updatedInput")
    if updated is not None:
        content = updated["content"]
    write(repo, CHECKPOINT, content)
    event(repo, "post_tool_use_write", tool_use_id=call, **{"tool_input.content": content})
    return content


CALLS = 0


def stats(repo: str, *args: str) -> str:
    proc = call_script("asimov-hooks", "stats", *args, cwd=repo)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def session(repo: str) -> dict:
    """The scripted session; what each step gave, for the assertions."""
    event(repo, "user_prompt_submit", prompt="implement the parser")
    agent_writes(repo, SMALL)  # 1: a small write
    trimmed_first = agent_writes(repo, LONG)  # 2: trimmed before the write
    write(repo, CHECKPOINT, LONG)  # 3: written by hand-off (no PreToolUse): trimmed after
    event(repo, "post_tool_use_write", **{"tool_input.content": LONG})
    refused = event(repo, "pre_tool_use_write", **{"tool_input.content": "milestone: [x\n"})
    assert refused["hookSpecificOutput"]["permissionDecision"] == "deny"
    work(repo, 40)
    stop = event(repo, "stop", stop_hook_active=False)
    assert stop is not None  # the checkpoint request at the turn's end
    agent_writes(repo, SMALL)  # 4: answers it
    compact = event(repo, "session_start_compact")
    given_back = compact["hookSpecificOutput"]["additionalContext"]
    agent_writes(repo, SMALL)  # 5: answers the request that follows the re-read
    return {"trimmed_first": trimmed_first, "given_back": given_back}


def test_a_session_is_reported_back_exactly(tmp_path, isolated_home) -> None:
    repo = make_repo(tmp_path)
    seen = session(repo)
    data = json.loads(stats(repo, "--format", "json"))
    small, long = count_lines(SMALL), count_lines(LONG)
    kept_long = count_lines(seen["trimmed_first"])
    assert (small, long, kept_long) == (12, 22, 15)
    cp = data["kinds"]["asimov-checkpoint"]
    assert cp["writes"] == 5 and cp["checkpoint"] is True
    assert cp["written"]["lines"] == {"median": 12, "p90": 22, "max": 22}
    assert cp["kept"]["lines"] == {"median": 12, "p90": 15, "max": 15}
    assert cp["written"]["tokens"]["max"] == -(-len(LONG) // 4)  # characters / 4, rounded up
    # 12 completed items capped at the schema's 5 (the last ones): 7 archived by each trim
    assert seen["trimmed_first"].count('  - "Task') == 5 + 1  # 5 completed, 1 next step
    assert cp["trimmed"] == 2 and cp["items_archived"] == 2 * 7
    assert cp["lines_cut"] == 2 * (long - kept_long)
    soft = cp["limits"]["max-lines-soft"]
    assert (soft["max"], soft["written_over"], soft["kept_over"]) == (20, 2, 0)
    assert cp["limits"]["max-lines-hard"]["written_over"] == 0
    assert data["refusals"] == {"syntax": 1}
    rr = data["rereads"]
    assert rr["count"] == 1 and rr["by_source"] == {"compact": 1}
    assert rr["chars"]["max"] == len(seen["given_back"])
    assert rr["lines"]["max"] == count_lines(seen["given_back"])
    rq = data["requests"]
    assert (rq["made"], rq["at_turn_end"], rq["after_restart"], rq["answered"]) == (2, 1, 1, 2)
    assert 0 <= rq["median_seconds"] < 60
    text = stats(repo)
    assert "Checkpoint writes (asimov-checkpoint): 5" in text
    assert "  lines as written        12     22     22" in text
    assert "  lines as kept           12     15     15" in text
    assert "max-lines-soft 20 (warning): over as written on 2 of 5 writes (40 %)" in text
    assert "trimmed 2 writes: 14 lines cut, 14 items archived" in text
    assert "Refusals by rule: syntax 1" in text
    assert "Checkpoint requests: 2 made (1 at a turn end, 1 after a restart), 2 answered" in text
    assert (
        "p90 of your checkpoint writes is 22 lines: the 20-line soft limit fired on 40 % of "
        "writes; a 15-line limit would have fired on 40 %; a 25-line limit would have fired "
        "on 0 %." in text
    )
    lines = "    kinds:\n      asimov-checkpoint:\n        rules:\n          max-lines-soft: {max: 22}\n"
    assert text.endswith(lines)
    checkpoint = call_script("asimov-hooks", "checkpoint", "stats", cwd=repo)
    assert checkpoint.returncode == 0 and checkpoint.stdout == text  # `/checkpoint stats`
    # the lines given work as they are: the config then sets that limit
    with open(os.path.join(repo, ".asimov-hooks.yaml"), "a", encoding="utf-8") as fh:
        fh.write("\n".join(line[4:] for line in lines.splitlines()) + "\n")
    from asimov_hooks.config.config import load_config

    config = load_config(None, start=repo)
    assert config.rules_for("asimov-checkpoint", CHECKPOINT)["max-lines-soft"]["max"] == 22


def test_the_record_holds_no_file_content(tmp_path, isolated_home) -> None:
    repo = make_repo(tmp_path)
    marker = "zq-unique-7c1f3e9a-marker"
    content = SMALL.replace("Add feature X", marker)
    agent_writes(repo, content)
    agent_writes(repo, LONG.replace("older work", marker))
    event(repo, "session_start_compact")
    state = os.path.join(repo, ".git", "asimov-hooks")
    with open(os.path.join(repo, RECORD), "rb") as fh:
        assert fh.read().count(b"e=write") == 2  # the writes were recorded
    for folder, _dirs, names in os.walk(state):
        for name in names:
            with open(os.path.join(folder, name), "rb") as fh:
                data = fh.read()
            assert marker.encode() not in data, name
            assert b"older work" not in data and b"Task 6" not in data, name


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str | None]] = []
        self.open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attrs += attrs
        if tag not in ("meta", "circle", "line", "rect", "br"):
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("circle", "line", "rect"):
            return
        assert self.open and self.open[-1] == tag, (self.open, tag)
        self.open.pop()


def test_html_is_one_self_contained_page_with_its_charts(tmp_path, isolated_home) -> None:
    repo = make_repo(tmp_path)
    session(repo)
    out = tmp_path / "stats.html"
    assert stats(repo, "--format", "html", "-o", str(out)) == ""
    page = out.read_text(encoding="utf-8")
    parser = _Page()
    parser.feed(page)
    parser.close()
    assert page.startswith("<!DOCTYPE html>") and not parser.open
    assert "script" not in parser.tags and "img" not in parser.tags and "link" not in parser.tags
    names = {name for name, _ in parser.attrs}
    assert not names & {"src", "href", "xlink:href", "srcset", "action"}
    assert "://" not in page and "url(" not in page and "@import" not in page
    assert parser.tags.count("svg") == 2  # sizes over time, and the distribution
    assert parser.tags.count("circle") == 2 * 5  # each write, as written and as kept
    assert "max-lines-soft 20" in page and "max-lines-hard 30" in page
    assert "rect" in parser.tags


def test_switched_off_nothing_is_recorded(tmp_path, isolated_home) -> None:
    repo = make_repo(tmp_path, stats=False)
    session(repo)
    assert not os.path.exists(os.path.join(repo, RECORD))
    assert stats(repo) == ""  # quiet when nothing is recorded
    data = json.loads(stats(repo, "--format", "json"))
    assert data["records"] == 0 and data["kinds"] == {}


def test_clear_and_since(tmp_path, isolated_home) -> None:
    repo = make_repo(tmp_path)
    agent_writes(repo, SMALL)
    assert "Checkpoint writes (asimov-checkpoint): 1" in stats(repo, "--since", "1h")
    future = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 3600))
    assert stats(repo, "--since", future) == ""
    bad = call_script("asimov-hooks", "stats", "--since", "yesterday", cwd=repo)
    assert bad.returncode == 2 and "--since 'yesterday'" in bad.stderr
    assert "1 records removed" in stats(repo, "--clear")
    assert stats(repo) == "" and not os.path.exists(os.path.join(repo, RECORD))


def test_the_record_rotates(tmp_path) -> None:
    from asimov_hooks.fs import journal

    path = str(tmp_path / "state" / "stats.log")
    for i in range(50):
        journal.append(path, b"v=1\tn=%d\n" % i, rotate_at=100)
    assert os.path.getsize(path) <= 100 and os.path.getsize(path + ".1") <= 100 + 12
    records = journal.read(path)
    assert records == [b"v=1\tn=%d" % i for i in range(50 - len(records), 50)]
    assert journal.clear(path) == len(records)
    assert journal.read(path) == []


@pytest.mark.parametrize("words", [("stats",)])
def test_checkpoint_stats_with_nothing_recorded(tmp_path, isolated_home, words) -> None:
    repo = make_repo(tmp_path)
    proc = call_script("asimov-hooks", "checkpoint", *words, cwd=repo)
    assert proc.returncode == 0 and "nothing recorded yet" in proc.stdout


def test_a_team_adds_its_members_records(tmp_path, isolated_home) -> None:
    alice = make_repo(tmp_path / "alice")
    bob = make_repo(tmp_path / "bob")
    agent_writes(alice, SMALL)
    agent_writes(bob, LONG)
    agent_writes(bob, SMALL)
    report = tmp_path / "bob.json"
    stats(bob, "--format", "json", "-o", str(report))
    both = json.loads(stats(alice, "--format", "json", "--add", str(report)))
    cp = both["kinds"]["asimov-checkpoint"]
    assert cp["writes"] == 3 and cp["trimmed"] == 1 and both["records"] == 4
    assert cp["written"]["lines"]["max"] == count_lines(LONG)
    tampered = json.loads(report.read_text(encoding="utf-8"))
    tampered["entries"][0]["k"] = "asimov-checkpoint\te=write"
    report.write_text(json.dumps(tampered), encoding="utf-8")
    bad = call_script("asimov-hooks", "stats", "--add", str(report), cwd=alice)
    assert bad.returncode == 2 and len(bad.stderr.splitlines()) == 1
    assert "an entry is not a record" in bad.stderr


def test_an_agent_process_records_its_write(tmp_path, isolated_home) -> None:
    """As the agent runs it: one process per event, the record module loaded only by
    the handler that notes something."""
    repo = make_repo(tmp_path)
    write(repo, CHECKPOINT, LONG)
    payload = fixture("claude", "post_tool_use_write", repo, **{"tool_input.content": LONG})
    assert run_event("claude", payload, repo, process=True).returncode == 0
    payload = fixture("claude", "user_prompt_submit", repo, prompt="next task")
    assert run_event("claude", payload, repo, process=True).returncode == 0
    with open(os.path.join(repo, RECORD), encoding="ascii") as fh:
        lines = fh.read().splitlines()
    assert len(lines) == 1 and "\te=write\tk=asimov-checkpoint\twl=22\t" in lines[0]
    assert "\tkl=15\t" in lines[0] and "\ttr=1\tar=7" in lines[0]


def test_a_reread_at_the_next_prompt_is_recorded(tmp_path, isolated_home) -> None:
    """Gemini CLI gives no session start after a requested compression: the checkpoint
    comes back at its next prompt, and counts as a re-read after a compaction."""
    repo = make_repo(tmp_path)
    write(repo, CHECKPOINT, SMALL)
    assert run_event("gemini", fixture("gemini", "pre_compress", repo), repo).returncode == 0
    out = answer(run_event("gemini", fixture("gemini", "before_agent", repo, prompt="go"), repo))
    given = out["hookSpecificOutput"]["additionalContext"]
    rr = json.loads(stats(repo, "--format", "json"))["rereads"]
    assert rr["count"] == 1 and rr["by_source"] == {"compact": 1}
    assert rr["chars"]["max"] == len(given)
