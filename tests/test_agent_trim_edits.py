"""ADR-007 trims BEFORE each checkpoint write, edits included: an edit that would leave
the checkpoint over its caps is handed back, where the agent takes a changed tool
input, as the same tool replacing the whole current file with the trimmed content
(Claude Code Edit/MultiEdit `updatedInput`, Gemini CLI replace `tool_input`, Copilot
CLI edit `modifiedArgs`), and a Codex patch touching several files gets the
checkpoint's section rewritten, the other sections untouched. Qwen Code does not apply
a PreToolUse `updatedInput`: its writes are trimmed after.

Each event is one `asimov-hooks agent-event` process fed a documented payload. Each
rewrite is checked for agreement with the archive once the rewritten call has landed
and the hook after it has run (nothing is archived before: the write may still be
refused): the content the model's edit would have left equals what the rewritten call
leaves plus what the archive gained, and both equal what `asimov-hooks trim` makes of
that content after the write."""

from __future__ import annotations

import collections
import io
import json
import os
from pathlib import Path

import pytest
from agent_support import answer, fixture, run_event
from conftest import git_init, run_script, write
from ruamel.yaml import YAML
from trim_edit_data import AFTER, ARCHIVE, BEFORE, CHECKPOINT, NEW, OLD


@pytest.fixture
def repo(tmp_path, isolated_home) -> str:
    return _project(tmp_path / "repo")


def _project(path) -> str:
    repo = git_init(path)
    write(repo, ".gitignore", f"{CHECKPOINT}\n{ARCHIVE}\n")
    write(repo, "warmup.yaml", "identity:\n  project: demo\n")
    return repo


def _load(text: str) -> object:
    return YAML(typ="safe").load(io.StringIO(text))


def _gained(repo: str, archive_before: str) -> dict:
    """The items the archive gained since `archive_before`, merged by field."""
    path = Path(repo, ARCHIVE)
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    assert text.startswith(archive_before)
    old = _load(archive_before) or []
    entries = (_load(text) or [])[len(old) :]
    merged: dict = {}
    for entry in entries if isinstance(entries, list) else [entries]:
        for key, value in entry["removed"].items():
            if isinstance(value, list):
                merged.setdefault(key, []).extend(value)
            else:
                merged[key] = value
    return merged


def agrees(
    repo: str, tmp_path, after: str, landed: str, post: tuple[str, dict], archive_before: str = ""
) -> None:
    """The rewritten call lands `landed` and the hook after it runs (`post`: the agent
    and its payload): nothing lost, `after` (what the model's call would have left) is
    `landed` plus what the archive gained, once; and `landed` is what the trim after a
    write of `after` makes of it."""
    assert _gained(repo, archive_before) == {}, "archived before the write landed"
    agent, payload = post
    Path(repo, CHECKPOINT).write_text(landed, encoding="utf-8")
    told = json.dumps(answer(run_event(agent, payload, repo)))
    assert "before it was written" in told
    assert Path(repo, CHECKPOINT).read_text(encoding="utf-8") == landed
    archived = Path(repo, ARCHIVE).read_text(encoding="utf-8")
    answer(run_event(agent, payload, repo))  # the hook again: nothing archived twice
    assert Path(repo, ARCHIVE).read_text(encoding="utf-8") == archived
    full, kept, cut = _load(after), _load(landed), _gained(repo, archive_before)
    assert cut, "the archive gained nothing"
    for key, value in full.items():
        if isinstance(value, list):
            got = list(kept.get(key) or []) + list(cut.get(key) or [])
            assert collections.Counter(got) == collections.Counter(value), key
        elif key in kept:
            assert kept[key] == value, key
        else:
            assert cut.get(key) == value, key
    assert set(kept) <= set(full)
    twin = _project(tmp_path / "twin")
    write(twin, CHECKPOINT, after)
    done = run_script("asimov-hooks", "trim", CHECKPOINT, cwd=twin)
    assert done.returncode in (0, 1), done.stderr
    assert Path(twin, CHECKPOINT).read_text(encoding="utf-8") == landed
    assert _gained(twin, "") == cut


def replaced(current: str, old: str, new: str) -> str:
    """An exact-replacement edit as the agents apply one: old occurs exactly once."""
    if old == "":
        return new
    assert current.count(old) == 1, "the rewritten old string is not unique"
    return current.replace(old, new, 1)


def claude_post(repo: str, pre: dict) -> tuple[str, dict]:
    """Claude Code's PostToolUse of the call `pre` announced (the same tool_use_id)."""
    path = os.path.join(repo, CHECKPOINT)
    fields = {"tool_use_id": pre["tool_use_id"], "tool_input.file_path": path}
    return "claude", fixture("claude", "post_tool_use_edit", repo, **fields)


def codex_post(repo: str, command: str, name: str = "apply_patch") -> tuple[str, dict]:
    """Codex's PostToolUse of the call that ran `command` (the rewritten one)."""
    return "codex", fixture(
        "codex", f"post_tool_use_{name}", repo, **{"tool_input.command": command}
    )


GEMINI_POST = ("gemini", "after_tool_write_file")
COPILOT_POST = ("copilot", "post_tool_use_edit")


def post_of(repo: str, which: tuple[str, str]) -> tuple[str, dict]:
    return which[0], fixture(which[0], which[1], repo)


# ------------------------------------------------------------------ Claude Code
@pytest.mark.parametrize("mode", ["acceptEdits", "bypassPermissions", "default", "plan", "dontAsk"])
def test_claude_edit_replaces_the_whole_file_with_the_trimmed_content(repo, tmp_path, mode):
    write(repo, CHECKPOINT, BEFORE)
    path = os.path.join(repo, CHECKPOINT)
    payload = fixture(
        "claude",
        "pre_tool_use_edit",
        repo,
        permission_mode=mode,
        **{
            "tool_input.file_path": path,
            "tool_input.old_string": OLD,
            "tool_input.new_string": NEW,
            "tool_input.replace_all": False,
        },
    )
    specific = answer(run_event("claude", payload, repo))["hookSpecificOutput"]
    # no decision in any mode: the user's own rules and mode judge the changed call
    assert "permissionDecision" not in specific
    updated = specific["updatedInput"]
    # the same tool (updatedInput keeps it): the whole current file, once, replaced
    assert set(updated) == {"file_path", "old_string", "new_string", "replace_all"}
    assert updated["file_path"] == path and updated["replace_all"] is False
    assert updated["old_string"] == BEFORE
    landed = replaced(BEFORE, updated["old_string"], updated["new_string"])
    assert "Task 1: step 1" not in landed and '"Task 6: wire the edits"' in landed
    agrees(repo, tmp_path, AFTER, landed, claude_post(repo, payload))


def test_claude_multiedit_becomes_one_whole_file_edit(repo, tmp_path):
    write(repo, CHECKPOINT, BEFORE)
    edits = [
        {"old_string": OLD, "new_string": NEW},
        {"old_string": "status: in_progress", "new_string": "status: blocked"},
    ]
    payload = fixture(
        "claude",
        "pre_tool_use_multiedit",
        repo,
        permission_mode="acceptEdits",
        **{"tool_input.edits": edits},
    )
    updated = answer(run_event("claude", payload, repo))["hookSpecificOutput"]["updatedInput"]
    [edit] = updated["edits"]
    landed = replaced(BEFORE, edit["old_string"], edit["new_string"])
    assert "status: blocked" in landed and "Task 1: step 1" not in landed
    after = AFTER.replace("status: in_progress", "status: blocked")
    agrees(repo, tmp_path, after, landed, claude_post(repo, payload))


def test_claude_edit_that_creates_the_file_carries_the_trimmed_content(repo, tmp_path):
    payload = fixture(
        "claude",
        "pre_tool_use_edit",
        repo,
        permission_mode="acceptEdits",
        **{"tool_input.old_string": "", "tool_input.new_string": AFTER},
    )
    updated = answer(run_event("claude", payload, repo))["hookSpecificOutput"]["updatedInput"]
    assert updated["old_string"] == ""
    agrees(repo, tmp_path, AFTER, updated["new_string"], claude_post(repo, payload))


def test_claude_edit_of_a_crlf_file_is_trimmed_after_the_write(repo):
    """The edit tools match on text they normalize: a CRLF file is not rewritten, and
    nothing is archived before the write (the trim after it archives, once)."""
    Path(repo, CHECKPOINT).write_bytes(BEFORE.replace("\n", "\r\n").encode())
    payload = fixture(
        "claude",
        "pre_tool_use_edit",
        repo,
        permission_mode="acceptEdits",
        **{
            "tool_input.old_string": OLD.replace("\n", "\r\n"),
            "tool_input.new_string": NEW.replace("\n", "\r\n"),
        },
    )
    out = answer(run_event("claude", payload, repo))
    assert out is None or "updatedInput" not in out["hookSpecificOutput"]
    assert not Path(repo, ARCHIVE).exists()
    Path(repo, CHECKPOINT).write_bytes(AFTER.replace("\n", "\r\n").encode())
    post = answer(run_event("claude", fixture("claude", "post_tool_use_edit", repo), repo))
    assert "trimmed" in post["hookSpecificOutput"]["additionalContext"]
    assert "Task 1: step 1" in Path(repo, ARCHIVE).read_text(encoding="utf-8")


# ------------------------------------------------------------------ Gemini CLI
def test_gemini_replace_hands_back_every_argument_changed(repo, tmp_path):
    write(repo, CHECKPOINT, BEFORE)
    payload = fixture(
        "gemini",
        "before_tool_replace",
        repo,
        **{"tool_input.old_string": OLD, "tool_input.new_string": NEW},
    )
    out = answer(run_event("gemini", payload, repo))
    assert "decision" not in out
    given = out["hookSpecificOutput"]["tool_input"]
    # all of the model's arguments (instruction too): Gemini CLI validates the object
    # as the tool's whole set of arguments
    assert set(given) == set(payload["tool_input"])
    assert given["instruction"] == payload["tool_input"]["instruction"]
    landed = gemini_replaced(BEFORE, given["old_string"], given["new_string"])
    agrees(repo, tmp_path, AFTER, landed, post_of(repo, GEMINI_POST))


def gemini_replaced(current: str, old: str, new: str) -> str:
    """Gemini CLI's replace: exactly one occurrence, then the result gets the current
    file's final newline, or its lack."""
    result = replaced(current, old, new)
    if current.endswith("\n") and not result.endswith("\n"):
        return result + "\n"
    if not current.endswith("\n") and result.endswith("\n"):
        return result[:-1]
    return result


def test_gemini_replace_of_a_file_without_a_final_newline(repo, tmp_path):
    """replace gives the result the current file's final newline, or its lack: the
    trimmed content keeps the lack too, so the rewrite lands it exactly."""
    write(repo, CHECKPOINT, BEFORE.rstrip("\n"))
    payload = fixture(
        "gemini",
        "before_tool_replace",
        repo,
        **{"tool_input.old_string": OLD, "tool_input.new_string": NEW},
    )
    given = answer(run_event("gemini", payload, repo))["hookSpecificOutput"]["tool_input"]
    landed = gemini_replaced(BEFORE.rstrip("\n"), given["old_string"], given["new_string"])
    assert landed == given["new_string"] and not landed.endswith("\n")
    agrees(repo, tmp_path, AFTER.rstrip("\n"), landed, post_of(repo, GEMINI_POST))


# ------------------------------------------------------------------ Qwen Code
@pytest.mark.parametrize("tool", ["edit", "write_file"])
@pytest.mark.parametrize("mode", ["auto_edit", "yolo", "default"])
def test_qwen_is_trimmed_after_the_write(repo, mode, tool):
    """Qwen Code's hooks page lists a PreToolUse `updatedInput`, but Qwen Code does not
    apply it: no changed input, nothing archived before the write; the hook after it
    trims the file and archives the cut item once."""
    write(repo, CHECKPOINT, BEFORE)
    if tool == "edit":
        fields = {"tool_input.old_string": OLD, "tool_input.new_string": NEW}
    else:
        fields = {"tool_input.content": AFTER}
    name = "pre_tool_use_edit" if tool == "edit" else "pre_tool_use_write_file"
    payload = fixture("qwen", name, repo, permission_mode=mode, **fields)
    out = answer(run_event("qwen", payload, repo))
    assert out is None or "updatedInput" not in out["hookSpecificOutput"]
    assert not Path(repo, ARCHIVE).exists()
    Path(repo, CHECKPOINT).write_text(AFTER, encoding="utf-8")
    post = fixture("qwen", "post_tool_use_write_file", repo)
    post["tool_input"]["file_path"] = os.path.join(repo, CHECKPOINT)
    done = answer(run_event("qwen", post, repo))
    assert "trimmed" in done["hookSpecificOutput"]["additionalContext"]
    assert Path(repo, ARCHIVE).read_text(encoding="utf-8").count("Task 1: step 1") == 1


# ------------------------------------------------------------------ Copilot CLI
def test_copilot_edit_gets_modified_args(repo, tmp_path):
    write(repo, CHECKPOINT, BEFORE)
    args = {"path": os.path.join(repo, CHECKPOINT), "old_str": OLD, "new_str": NEW}
    payload = fixture("copilot", "pre_tool_use_edit", repo, toolArgs=json.dumps(args))
    out = answer(run_event("copilot", payload, repo))
    assert "permissionDecision" not in out  # the user's own permission flow goes on
    modified = out["modifiedArgs"]
    assert set(modified) == set(args) and modified["path"] == args["path"]
    landed = replaced(BEFORE, modified["old_str"], modified["new_str"])
    agrees(repo, tmp_path, AFTER, landed, post_of(repo, COPILOT_POST))


def test_copilot_create_carries_the_trimmed_content(repo, tmp_path):
    args = {"path": os.path.join(repo, CHECKPOINT), "file_text": AFTER}
    payload = fixture("copilot", "pre_tool_use_create", repo, toolArgs=json.dumps(args))
    modified = answer(run_event("copilot", payload, repo))["modifiedArgs"]
    agrees(repo, tmp_path, AFTER, modified["file_text"], post_of(repo, COPILOT_POST))


# ------------------------------------------------------------------ Codex CLI
def _patch(*sections: str) -> str:
    return "*** Begin Patch\n" + "".join(sections) + "*** End Patch\n"


def _update(name: str, old: str, new: str, context: str | None = None) -> str:
    minus = "".join(f"-{line}\n" for line in old.splitlines())
    plus = "".join(f"+{line}\n" for line in new.splitlines())
    return f"*** Update File: {name}\n@@{' ' + context if context else ''}\n{minus}{plus}"


def _codex(repo: str, patch: str) -> dict | None:
    payload = fixture("codex", "pre_tool_use_apply_patch", repo, **{"tool_input.command": patch})
    out = answer(run_event("codex", payload, repo))
    return out["hookSpecificOutput"] if out else None


def _apply(patch: str, repo: str) -> dict:
    from asimov_hooks.agent.agents.apply_patch import apply_patch

    def read(name: str) -> str | None:
        path = Path(repo, name)
        return path.read_text(encoding="utf-8") if path.exists() else None

    return apply_patch(patch, read)


def test_codex_patch_of_several_files_rewrites_only_the_checkpoint(repo, tmp_path):
    write(repo, CHECKPOINT, BEFORE)
    write(repo, "src/app.py", "print('hello')\n")
    write(repo, "docs/notes.md", "# Notes\n\nold\n")
    app = _update("src/app.py", "print('hello')", "print('hello, world')")
    notes = "*** Delete File: docs/notes.md\n"
    added = "*** Add File: docs/new.md\n+# New\n"
    original = _patch(app, _update(CHECKPOINT, OLD, NEW), notes, added)
    specific = _codex(repo, original)
    assert specific["permissionDecision"] == "allow"
    rewritten = specific["updatedInput"]["command"]
    # the other sections exactly as the model wrote them
    for section in (app, notes, added):
        assert section in rewritten
    want, got = _apply(original, repo), _apply(rewritten, repo)
    assert got.pop(CHECKPOINT) != want.pop(CHECKPOINT) == AFTER
    assert got == want
    landed = _apply(rewritten, repo)[CHECKPOINT]
    agrees(repo, tmp_path, AFTER, landed, codex_post(repo, rewritten))


def test_codex_patch_adding_the_checkpoint_among_others(repo, tmp_path):
    write(repo, "src/app.py", "print('hello')\n")
    app = _update("src/app.py", "print('hello')", "print('bye')")
    add = f"*** Add File: {CHECKPOINT}\n" + "".join(f"+{line}\n" for line in AFTER.splitlines())
    rewritten = _codex(repo, _patch(add, app))["updatedInput"]["command"]
    assert app in rewritten and rewritten.count("*** Add File:") == 1
    result = _apply(rewritten, repo)
    assert result["src/app.py"] == "print('bye')\n"
    agrees(repo, tmp_path, AFTER, result[CHECKPOINT], codex_post(repo, rewritten))


@pytest.mark.parametrize("how", ["twice", "moved"])
def test_codex_patch_that_cannot_carry_it_is_trimmed_after(repo, how):
    """A file the patch touches twice, or moves, gets no section of its own to
    rewrite: the patch goes through as written, nothing archived before it."""
    write(repo, CHECKPOINT, BEFORE)
    if how == "twice":
        first = _update(CHECKPOINT, "status: in_progress", "status: blocked")
        patch = _patch(first, _update(CHECKPOINT, OLD, NEW))
    else:
        write(repo, "old.yaml", BEFORE)
        section = _update("old.yaml", OLD, NEW).replace("@@", f"*** Move to: {CHECKPOINT}\n@@")
        Path(repo, CHECKPOINT).unlink()
        patch = _patch(section)
    specific = _codex(repo, patch)
    assert specific is None or "updatedInput" not in specific
    assert not Path(repo, ARCHIVE).exists()


def _bash(repo: str, command: object) -> dict | None:
    payload = fixture("codex", "pre_tool_use_bash", repo, **{"tool_input.command": command})
    out = answer(run_event("codex", payload, repo))
    return out["hookSpecificOutput"] if out else None


def test_codex_patch_through_the_shell_is_rewritten_in_the_command(repo, tmp_path):
    """A model without the apply_patch tool runs it in a heredoc through the shell:
    the patch inside the command is rewritten, the rest of the command kept."""
    from asimov_hooks.agent.runtime.shellcmd import patches

    write(repo, CHECKPOINT, BEFORE)
    write(repo, "src/app.py", "print('hello')\n")
    app = _update("src/app.py", "print('hello')", "print('hi')")
    patch = _patch(app, _update(CHECKPOINT, OLD, NEW))
    command = f"cd {repo} && apply_patch <<'EOF'\n{patch}EOF\necho done\n"
    specific = _bash(repo, command)
    assert specific["permissionDecision"] == "allow"
    rewritten = specific["updatedInput"]["command"]
    assert rewritten.startswith(f"cd {repo} && apply_patch <<'EOF'\n")
    assert rewritten.endswith("EOF\necho done\n")
    [(_, inner)] = patches(rewritten)
    assert app in inner
    result = _apply(inner, repo)
    assert result["src/app.py"] == "print('hi')\n"
    agrees(repo, tmp_path, AFTER, result[CHECKPOINT], codex_post(repo, rewritten, "bash"))


@pytest.mark.parametrize("form", ["argv", "dash", "two patches"])
def test_codex_shell_patch_that_cannot_carry_it_is_trimmed_after(repo, form):
    write(repo, CHECKPOINT, BEFORE)
    patch = _patch(_update(CHECKPOINT, OLD, NEW))
    command: object
    if form == "argv":
        command = ["bash", "-lc", f"apply_patch <<'EOF'\n{patch}EOF\n"]
    elif form == "dash":
        tabbed = "".join(f"\t{line}\n" for line in patch.splitlines())
        command = f"apply_patch <<-'EOF'\n{tabbed}\tEOF\n"
    else:  # the checkpoint in two patches of one command
        second = _patch(_update(CHECKPOINT, "status: in_progress", "status: blocked"))
        command = f"apply_patch <<'EOF'\n{patch}EOF\napply_patch <<'EOF'\n{second}EOF\n"
    specific = _bash(repo, command)
    assert specific is None or "updatedInput" not in specific
    assert not Path(repo, ARCHIVE).exists()


# ------------------------------------------------------------ the rewriting itself
def test_patch_rewrite_keeps_other_sections_byte_for_byte():
    from asimov_hooks.agent.agents.patch_rewrite import rewrite_patch

    other = "*** Update File: b.txt\r\n@@\r\n-x\r\n+y\r\n"  # CRLF lines of another file
    patch = f"*** Begin Patch\n*** Update File: a.yaml\n@@\n-1\n+2\n{other}*** End Patch"
    plans = {"/p/a.yaml": ("0\n1\n", "kept\n")}
    new, carried = rewrite_patch(patch, plans, lambda name: f"/p/{name}")
    assert carried == ["/p/a.yaml"]
    assert new == (
        f"*** Begin Patch\n*** Update File: a.yaml\n@@\n-0\n-1\n+kept\n{other}*** End Patch"
    )


@pytest.mark.parametrize(
    "current, content",
    [
        ("a\r\nb\r\n", "a\n"),  # CR line ends would be lost
        ("   \n", "a\n"),  # no line for a hunk to find
        ("a\nb\n", "a"),  # Codex ends every file with a newline
    ],
)
def test_patch_rewrite_refuses_what_it_cannot_leave_exactly(current, content):
    from asimov_hooks.agent.agents.patch_rewrite import rewrite_patch

    patch = "*** Begin Patch\n*** Update File: a.yaml\n@@\n-a\n+b\n*** End Patch\n"
    assert rewrite_patch(patch, {"/p/a.yaml": (current, content)}, lambda n: f"/p/{n}") is None


@pytest.mark.parametrize(
    "current, content, keeps, expected",
    [
        (None, "a\n", False, True),  # a new file: created from an empty old string
        ("", "a\n", False, False),  # an empty file: no old text to replace
        ("a\n", "a\n", False, False),  # nothing would change: the tools refuse that
        ("a\r\nb\r\n", "a\n", False, False),  # CRLF: the tools normalize what they match
        ("\ufeffa\n", "b\n", False, False),  # byte-order mark
        ("a", "b\n", True, False),  # Gemini/Qwen keep the current lack of a final newline
        ("a", "b\n", False, True),
        ("a\n", "b\n", True, True),
    ],
)
def test_whole_file_replacement_only_where_exact(current, content, keeps, expected):
    from asimov_hooks.agent.runtime.rewrite import replaceable

    assert replaceable(current, content, create=True, keeps_newline=keeps) is expected


def test_copilot_create_over_an_existing_file_is_not_rewritten(repo):
    """create does not overwrite a file: the call fails by itself, and nothing is
    archived for a write that will not happen."""
    write(repo, CHECKPOINT, BEFORE)
    args = {"path": os.path.join(repo, CHECKPOINT), "file_text": AFTER}
    payload = fixture("copilot", "pre_tool_use_create", repo, toolArgs=json.dumps(args))
    out = answer(run_event("copilot", payload, repo))
    assert out is None or "modifiedArgs" not in out
    assert not Path(repo, ARCHIVE).exists()


# edits the rolling window answers in different ways: a list capped at its first items,
# the soft line limit (lists cut to their windows, optional fields removed), comments
SCENARIOS = {
    "next_steps over its cap": (
        BEFORE,
        '  - "Task 7: release notes"\n',
        "".join(f'  - "Task {i}: later"\n' for i in range(7, 14)),
    ),
    "over the soft line limit": (
        BEFORE,
        'on_confusion: "cat warmup.yaml"\n',
        'on_confusion: "cat warmup.yaml"\nnotes: |\n'
        + "".join(f"  note line {i}\n" for i in range(8))
        + "context: the edits\n",
    ),
    "commented items": (
        BEFORE.replace('  - "Task 1: step 1"\n', '  # the first one\n  - "Task 1: step 1"\n'),
        OLD,
        NEW,
    ),
}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_nothing_is_lost_whatever_the_trim_removes(repo, tmp_path, name, agent):
    before, old, new = SCENARIOS[name]
    after = before.replace(old, new)
    write(repo, CHECKPOINT, before)
    archive = (
        "- trimmed_at: '2026-11-01T00:00:00Z'\n  source: x\n  removed:\n    completed: [old]\n"
    )
    write(repo, ARCHIVE, archive)  # an archive with history: only what is appended counts
    if agent == "claude":
        payload = fixture(
            "claude",
            "pre_tool_use_edit",
            repo,
            permission_mode="acceptEdits",
            **{"tool_input.old_string": old, "tool_input.new_string": new},
        )
        updated = answer(run_event("claude", payload, repo))["hookSpecificOutput"]["updatedInput"]
        landed = replaced(before, updated["old_string"], updated["new_string"])
        post = claude_post(repo, payload)
    else:
        rewritten = _codex(repo, _patch(_update(CHECKPOINT, old, new)))["updatedInput"]["command"]
        landed = _apply(rewritten, repo)[CHECKPOINT]
        post = codex_post(repo, rewritten)
    assert landed != after
    agrees(repo, tmp_path, after, landed, post, archive)
