"""The first minutes with a real agent, on the real wall clock: the same session in a new
project whose files are not committed yet and in its committed twin gives the same result,
for every agent.

The session: an oversized checkpoint write (refused), a trimmable one (lands trimmed, the
cut items archived once), then real work that ends in a tool call and lasts longer than the
turn threshold (the scripted model takes that long, for real, before the call), a final
answer (asked for a checkpoint), and a quick answer to the request (not asked again). No
turn record is moved: a timer that restarts during the turn (an empty prompt taken for a
real one, say) leaves the long turn unasked, and the test fails.
"""

from __future__ import annotations

import os
import re

import pytest
from conftest import GOOD_CHECKPOINT, commit_all, git, git_init, write
from e2e_agents import AGENTS, Agent
from e2e_servers import say
from test_e2e_agents import (  # noqa: F401  (fixtures)
    CHECKPOINT,
    OVERSIZED,
    REQUEST,
    REQUEST_HEAD,
    TRIMMABLE,
    added,
    agent_commands,
    asks,
    install_hooks,
    ran,
    read,
    refusal,
    sink,
)

THRESHOLD = 10  # seconds: this module's turn threshold
WORK = THRESHOLD + 4  # seconds the scripted model really takes before its last tool call
ARCHIVE = ".claude_checkpoint.archive.yaml"
TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?")


def make_repository(path: str, committed: bool) -> str:
    """A project that follows the protocol: warmup.yaml, a checkpoint (git-ignored, as the
    protocol says), the hooks' settings; committed, or only on disk as after
    `asimov-mode init` in a new project."""
    repo = git_init(path)
    write(repo, CHECKPOINT, GOOD_CHECKPOINT)
    write(repo, "warmup.yaml", "identity:\n  project: demo\n")
    write(repo, ".gitignore", f"/{CHECKPOINT}\n/{ARCHIVE}\n")
    write(
        repo,
        ".asimov-hooks.yaml",
        f'agent:\n  turn-threshold: {THRESHOLD}\n  checkpoint-message: "{REQUEST}"\n',
    )
    write(repo, "src/app.py", "print('hello')\n")
    if committed:
        commit_all(repo, "init")
    return repo


def session(agent: Agent) -> dict[str, object]:
    """Run the session; what the model was told and what is on disk, in a form that does
    not depend on where the repository is."""
    work = agent.write("src/app.py", "print('hello, world')\n")
    work.delay = WORK  # the model works that long, for real, before this call
    script = [
        agent.write(CHECKPOINT, OVERSIZED),
        agent.write(CHECKPOINT, TRIMMABLE),
        work,
        say("The feature is built."),
        say("Nothing changed since."),
    ]
    with agent.server_class(script) as srv:
        ran(agent.run(srv, "Build the feature."))
        results = agent.tool_results(srv)
        told = [added(agent, srv, i) for i in range(len(srv.main_requests()))]
        outcome = {
            "turns used": srv.turns_used(),
            "requests": len(srv.main_requests()),
            "asked at": asks(agent, srv),
        }
    where = os.path.realpath(agent.project)
    outcome.update(
        {
            "refused": refusal(results[0]),
            "trimmable refused": "asimov-hooks refused" in results[1],
            "checkpoint": read(agent),
            "archive": TIME.sub("<time>", read(agent, ARCHIVE)),
            "app": read(agent, "src/app.py"),
            "request names the file": len(told) > 4 and CHECKPOINT in told[4],
            # every line asimov-hooks wrote into the conversation, the project's path aside
            "our lines": sorted(
                {
                    line.replace(where, "<project>").replace(agent.project, "<project>")
                    for text in told
                    for line in text.splitlines()
                    if "asimov-hooks" in line or REQUEST_HEAD in line
                }
            ),
        }
    )
    return outcome


@pytest.mark.parametrize("name", sorted(AGENTS))
def test_new_project_and_its_committed_twin_get_the_same_session(
    tmp_path,
    agent_commands,  # noqa: F811
    sink,  # noqa: F811
    name,
) -> None:
    seen = {}
    for kind in ("new", "committed"):
        project = make_repository(str(tmp_path / kind), committed=kind == "committed")
        made = AGENTS[name](agent_commands[name], project)
        made.sink_url = sink.url
        try:
            install_hooks(made)
            if kind == "new":
                assert git(project, "ls-files").stdout == "", (
                    "the new project has files in the index"
                )
            seen[kind] = session(made)
        finally:
            made.cleanup()
    new, committed = seen["new"], seen["committed"]
    assert committed["refused"] and not committed["trimmable refused"], committed
    assert committed["asked at"] == [4], committed  # after the long turn, and only then
    assert committed["turns used"] == committed["requests"] == 5, committed
    assert committed["request names the file"]
    landed, archive = str(committed["checkpoint"]), str(committed["archive"])
    assert len(landed.splitlines()) <= 20, landed
    for i in range(25):  # every item in the checkpoint or in the archive, once
        assert (landed + archive).count(f"Done item {i:02d}") == 1, i
    assert committed["app"] == "print('hello, world')\n"
    for key in committed:
        assert new[key] == committed[key], (key, new[key], committed[key])
