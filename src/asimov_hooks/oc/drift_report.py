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


def health_url(project: Project, given: str | None, allow_committed: bool) -> FileResult:
    """`--online`: the deployed-commit result for the health URL the user chose, in
    this order: `--url`, `git config asimov-hooks.healthUrl` (a git config is the
    user's, never part of a checkout), the repository's `oc.health-url` when confirmed
    with --allow-committed-url. A committed URL without that confirmation is one
    finding saying how to allow it, and nothing is fetched: a cloned repository must
    not make this command send requests into the user's network. OcError (exit 2) for
    no URL at all, and for one that is not http(s)."""
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
        try:
            check_url(url)
        except BadURL as exc:
            raise OcError(str(exc)) from None
        return online(project, url, documented_keys=True)
    if not url:
        raise OcError(
            "--online needs the deployed health endpoint: --url URL, or "
            f"`git config {USER_URL_KEY} URL`"
        )
    try:
        check_url(url)
    except BadURL as exc:
        raise OcError(str(exc)) from None
    return online(project, url)


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


def online(project: Project, url: str, documented_keys: bool = False) -> FileResult:
    """`--online`: the deployed-commit rule on the health endpoint at `url`, as one more
    result of the report (its path is the URL). With `documented_keys` (the URL is the
    repository's own, fetched on --allow-committed-url) the answer's commit is read only
    from the fields docs/oc-toolkit.md names, whatever `health-commit-keys` says: a
    committed config that picks both the server and the field could otherwise have any
    hex value of the answer printed."""
    from ..checks.online import RULE, check, deadline_of
    from ..findings import FileResult, Finding
    from ..gitutil import GitError

    result = FileResult(url, "oc-checkpoint")
    opts = project.rules(f"{project.dir}/online{SUFFIX}").get(RULE, {})
    level = opts.get("level", "warning")
    if level == "off":
        return result
    settings = project.settings
    keys = [str(k) for k in settings.get("health-commit-keys") or ("commit", "sha")]
    if documented_keys:
        from ..config.packs import load_rule_file

        keys = [str(k) for k in load_rule_file("oc.json")["oc"]["health-commit-keys"]]
    try:
        message = check(project.root, url, deadline_of(settings.get("health-timeout", 5)), keys)
    except GitError as exc:
        message = f"cannot compare with the local HEAD: {exc}"
    if message is not None:
        result.findings.append(Finding(url, 1, 1, level, RULE, message, opts.get("suggestion")))
    return result
