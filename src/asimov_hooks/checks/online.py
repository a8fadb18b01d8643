"""The protocol's `doctor --online`: is the deployed commit the local HEAD?

Rule `deployed-commit` (emitted by `asimov-hooks oc doctor --online`, never by a file
check: it asks the network, so it runs only when asked). The health endpoint is fetched
with the standard library, one overall deadline for the whole request (a server that
trickles its answer a byte at a time is given up at the deadline) and a bounded read;
http and https only (a `file:` URL, or a redirect to one, would read this machine's
files). Only a commit-shaped value (7 to 64 hex digits) of the answer is ever shown,
whatever field it came from; a server's own words (its status reason, where it
redirects) are not. Whatever goes wrong (no answer, an HTTP error, a body that names no
commit) is one finding, never a traceback.

Where the URL may come from is `oc/cli`'s business (`health_url`): the command line,
the user's own git config, or a committed config the user confirmed.
"""

from __future__ import annotations

RULE = "deployed-commit"
MAX_ANSWER = 64 * 1024
SCHEMES = ("http", "https")
MAX_TIMEOUT = 60.0  # seconds; a committed health-timeout cannot hold the command longer

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any


class BadURL(ValueError):
    """A URL the doctor will not fetch (a usage error)."""


def check_url(url: str) -> str:
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
    except ValueError as exc:
        raise BadURL(f"{url!r} is not a URL ({exc})") from None
    if parts.scheme.lower() not in SCHEMES or not parts.netloc:
        raise BadURL(f"{url!r}: the health URL must be http:// or https://")
    return url


def deadline_of(value: Any) -> float:
    """The overall deadline in seconds: `value` (health-timeout) within (0, 60]."""
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        return 5.0
    return min(seconds, MAX_TIMEOUT) if seconds > 0 else 5.0  # NaN: not > 0


def fetch(url: str, timeout: float) -> tuple[bytes | None, str | None]:
    """(body, None) for a 2xx answer, else (None, what went wrong), within `timeout`
    seconds in all: name lookup, connection, headers and body. A socket timeout bounds
    each wait, not their sum, so the request runs in a thread the command stops
    waiting for at the deadline."""
    import threading

    box: list[tuple[bytes | None, str | None]] = []
    worker = threading.Thread(
        target=lambda: box.append(_fetch(url, timeout)), name="health-endpoint", daemon=True
    )
    worker.start()
    worker.join(timeout)
    if not box:
        return None, f"no answer within {timeout:g} s"
    return box[0]


def _fetch(url: str, timeout: float) -> tuple[bytes | None, str | None]:
    import urllib.error
    import urllib.request

    class Redirects(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, req, fp, code, msg, headers, newurl):  # type: ignore[no-untyped-def]
            check_url(newurl)
            return super().redirect_request(req, fp, code, msg, headers, newurl)

    opener = urllib.request.build_opener(Redirects)
    request = urllib.request.Request(
        url, headers={"Accept": "application/json", "User-Agent": "asimov-hooks oc doctor"}
    )
    try:
        with opener.open(request, timeout=timeout) as answer:
            body = answer.read(MAX_ANSWER + 1)
    except BadURL:  # where it points is the server's word: not shown
        return None, "redirected to a URL that is not http:// or https://; not followed"
    except urllib.error.HTTPError as exc:
        if 300 <= exc.code < 400 and "Redirection" in str(exc.reason):  # urllib's refusal
            return None, "redirected to a URL that is not http:// or https://; not followed"
        return None, f"answered HTTP {exc.code} {_phrase(exc.code)}".rstrip()
    except urllib.error.URLError as exc:
        return None, f"unreachable ({_reason(exc.reason)})"
    except TimeoutError:
        return None, f"no answer within {timeout:g} s"
    except (OSError, ValueError) as exc:  # a reset connection, a malformed status line ...
        return None, f"unreachable ({_reason(exc)})"
    except Exception as exc:  # http.client's own errors (BadStatusLine, IncompleteRead)
        return None, f"answered with something that is not HTTP ({type(exc).__name__})"
    if len(body) > MAX_ANSWER:
        return None, f"answered with more than {MAX_ANSWER:,} bytes; not read"
    return body, None


def _phrase(code: int) -> str:
    """The standard phrase of an HTTP status (never the server's own reason text)."""
    from http import HTTPStatus

    try:
        return HTTPStatus(code).phrase
    except ValueError:
        return ""


def _reason(reason: Any) -> str:
    if isinstance(reason, TimeoutError) or "timed out" in str(reason):
        return "timed out"
    text = getattr(reason, "strerror", None)
    return str(text) if text else type(reason).__name__


def _is_sha(value: Any) -> bool:
    return (
        isinstance(value, str)
        and 7 <= len(value) <= 64
        and all(c in "0123456789abcdefABCDEF" for c in value)
    )


def deployed_commit(body: bytes, keys: Sequence[str]) -> str | None:
    """The commit a health answer names: the first of `keys` holding a hex commit id,
    at the top level or one object down (`{"build": {"commit": ...}}`); a plain-text
    body that is only a commit id counts too."""
    from ..readers.fastjson import loads  # strict and depth-bounded: a server's text

    text = body.decode("utf-8", "replace").strip()
    if _is_sha(text):
        return text.lower()
    try:
        doc = loads(text)
    except ValueError:  # fastjson.JSONError: not JSON, NaN, 1e999, nested too deep
        return None
    layers = [doc] if isinstance(doc, dict) else []
    if layers:
        layers += [v for v in doc.values() if isinstance(v, dict)]
    for layer in layers:
        for key in keys:
            if _is_sha(layer.get(key)):
                return layer[key].lower()
    return None


def compare(root: str, deployed: str) -> str | None:
    """None when `deployed` is the local HEAD, else how they differ."""
    from ..gitutil import git

    head = git("rev-parse", "HEAD", cwd=root, check=False)
    if head.returncode != 0:
        return f"deploys {deployed[:12]}, but there is no local HEAD to compare it with"
    local = head.stdout.strip().lower()
    if local.startswith(deployed) or deployed.startswith(local):
        return None
    said = f"deploys {deployed[:12]}, not the local HEAD {local[:12]}"
    known = git("rev-parse", "--verify", "--quiet", f"{deployed}^{{commit}}", cwd=root, check=False)
    if known.returncode != 0:
        return (
            f"{said} (a commit this clone does not have: fetch, or the deploy is of another branch)"
        )
    full = known.stdout.strip()
    ahead = git("rev-list", "--count", f"{full}..HEAD", cwd=root, check=False).stdout.strip()
    behind = git("rev-list", "--count", f"HEAD..{full}", cwd=root, check=False).stdout.strip()
    facts = []
    if ahead not in ("", "0"):
        facts.append(f"HEAD has {ahead} commit{'s' if ahead != '1' else ''} not deployed")
    if behind not in ("", "0"):
        facts.append(f"the deploy has {behind} commit{'s' if behind != '1' else ''} HEAD has not")
    return said + (f" ({'; '.join(facts)})" if facts else "")


def check(
    root: str, url: str, timeout: float, keys: Sequence[str], set_aside: Sequence[str] = ()
) -> str | None:
    """The finding's message, or None when the deployed commit is the local HEAD.
    `set_aside`: fields a config file named that were not read (said when no commit
    was found, with how the user reads them)."""
    body, problem = fetch(url, timeout)
    if problem is not None:
        return f"health endpoint {problem}"
    assert body is not None
    deployed = deployed_commit(body, keys)
    if deployed is None:
        said = (
            "health endpoint answered, but names no commit (looked for a commit id in "
            f"{', '.join(keys)})"
        )
        if set_aside:
            said += (
                f"; {', '.join(set_aside)} (the config's health-commit-keys) not read: a "
                "field the repository's config adds is read only when you name it "
                "(--commit-key KEY, or git config asimov-hooks.healthCommitKeys KEY)"
            )
        return said
    return compare(root, deployed)


RULES: dict[str, Any] = {}  # deployed-commit is emitted by `oc doctor --online`
