"""`oc doctor`: the protocol's drift checks for every checkpoint, in one report.

The checks are the validator's own drift rules (checks/drift.py), run on each
`.checkpoints/<skill>.checkpoint.json` with nothing else selected, so `oc doctor` and
`asimov-validate` never disagree: project_dir missing on this machine, stale in_progress,
generated_files that do not exist, next_actions at PRs or tickets git shows as merged,
`.checkpoints/` ignored by git. A file that does not parse is reported as such (its
drift cannot be checked). Output formats and exit codes are asimov-validate's.
`--online` adds the deployed-commit rule (checks/online.py) on the health endpoint.
"""

from __future__ import annotations

from ..config.registry import rules_in
from .store import SUFFIX

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..findings import FileResult
    from .store import Project

# every drift rule the registry knows (a new one shows up here by itself); each file
# runs those of its kind's rules
DRIFT_RULES = rules_in("drift")
# without these a checkpoint that does not parse would pass silently
PARSE_RULES = ("syntax", "duplicate-key", "conflict-markers", "empty-file")


def check(project: Project) -> list[FileResult]:
    from ..validation.engine import Checker

    checker = Checker(project.config, DRIFT_RULES | set(PARSE_RULES))
    # the record's path is the file's (relative as the user sees it); the report escapes it
    files = [checker.record(project.rel(path)) for path in project.files()]
    checker.prefetch(files)
    return [checker.check(record) for record in files]


USER_URL_KEY = "asimov-hooks.healthUrl"  # git config: the user's own, never committed
USER_KEYS_KEY = "asimov-hooks.healthCommitKeys"  # likewise: fields the user chose to read


def health_url(
    project: Project, given: str | None, allow_committed: bool, keys: Sequence[str] = ()
) -> FileResult:
    """`--online`: the deployed-commit result for the health URL the user chose, in
    this order: `--url`, `git config asimov-hooks.healthUrl` (a git config is the
    user's, never part of a checkout), the repository's `oc.health-url` when confirmed
    with --allow-committed-url. A committed URL without that confirmation is one
    finding saying how to allow it, and nothing is fetched: a cloned repository must
    not make this command send requests into the user's network. OcError (exit 2) for
    no URL at all, and for one that is not http(s). `keys`: the fields of the answer
    `--commit-key` names (see commit_keys)."""
    from ..checks.online import BadURL, check_url
    from ..gitutil import GitError, config_get
    from .store import OcError

    url = given
    if url is None:
        try:
            url = config_get(USER_URL_KEY, cwd=project.root) or None
        except GitError:
            url = None
    committed = project.settings.get("health-url")
    if url is None and committed:
        if not allow_committed:
            return _not_fetched(project, str(committed))
        url = str(committed)
    if not url:
        raise OcError(
            "--online needs the deployed health endpoint: --url URL, or "
            f"`git config {USER_URL_KEY} URL`"
        )
    try:
        check_url(url)
    except BadURL as exc:
        raise OcError(str(exc)) from None
    return online(project, url, keys)


def _not_fetched(project: Project, url: str) -> FileResult:
    from ..checks.online import RULE
    from ..findings import FileResult, Finding

    where = project.show(project.config.source) if project.config.source else "the config"
    result = FileResult(where, "oc-checkpoint")
    result.findings.append(
        Finding(
            where,
            1,
            1,
            "warning",
            RULE,
            f"oc.health-url {url!r} comes from the repository's config; not fetched. "
            "To fetch it: asimov-hooks oc doctor --online --allow-committed-url (or "
            f"--url URL, or git config {USER_URL_KEY} URL)",
        )
    )
    return result


def commit_keys(project: Project, given: Sequence[str]) -> tuple[list[str], list[str]]:
    """(the fields of the health answer read as its commit, the config's fields set
    aside). Fields the user named are read as named: `--commit-key`, else `git config
    asimov-hooks.healthCommitKeys` (comma- or space-separated; a git config is never
    part of a checkout). Otherwise only the fields docs/oc-toolkit.md names are read: a
    config file's `health-commit-keys` may narrow or reorder them, never add one. A
    config file is the checkout's whoever's URL is fetched, and a field it picks would
    have any commit-shaped value of the answer (a token, a key id) printed."""
    from ..config.packs import load_rule_file
    from ..gitutil import GitError, config_get

    if not given:
        try:
            given = (config_get(USER_KEYS_KEY, cwd=project.root) or "").replace(",", " ").split()
        except GitError:
            given = ()
    if given:
        return [str(k) for k in given], []
    documented = [str(k) for k in load_rule_file("oc.json")["oc"]["health-commit-keys"]]
    named = project.settings.get("health-commit-keys") or documented
    if isinstance(named, str):
        named = [named]
    named = [str(k) for k in named] if isinstance(named, list) else documented
    narrowed = [k for k in named if k in documented]
    return narrowed or documented, [k for k in named if k not in documented]


def online(project: Project, url: str, given_keys: Sequence[str] = ()) -> FileResult:
    """`--online`: the deployed-commit rule on the health endpoint at `url`, as one more
    result of the report (its path is the URL); the answer's fields read are
    commit_keys'."""
    from ..checks.online import RULE, check, deadline_of
    from ..findings import FileResult, Finding
    from ..gitutil import GitError

    result = FileResult(url, "oc-checkpoint")
    opts = project.rules(f"{project.dir}/online{SUFFIX}").get(RULE, {})
    level = opts.get("level", "warning")
    if level == "off":
        return result
    settings = project.settings
    keys, set_aside = commit_keys(project, given_keys)
    timeout = deadline_of(settings.get("health-timeout", 5))
    try:
        message = check(project.root, url, timeout, keys, set_aside)
    except GitError as exc:
        message = f"cannot compare with the local HEAD: {exc}"
    if message is not None:
        result.findings.append(Finding(url, 1, 1, level, RULE, message, opts.get("suggestion")))
    return result
