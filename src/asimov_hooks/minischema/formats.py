"""The `format`s asserted under `asimov-validate --format-assertion`, with the stdlib only.

Draft 2020-12 makes `format` an annotation unless a user asks for assertion, so it is off
by default. When on, both evaluators (minischema and the jsonschema fallback, through a
`FormatChecker` holding exactly these functions) check a string against the formats
named in `CHECKS`; a format not listed is an annotation still, and a value that is not a
string passes (as the specification says). A YAML date or timestamp is checked as the
ISO 8601 text both evaluators see (`2026-01-15`, `2026-01-15T10:30:00+00:00`).
"""

from __future__ import annotations

import datetime
import re

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only; typing costs start-up time
    from collections.abc import Callable
    from typing import Any

_D = "[0-9]"
_DATE = re.compile(rf"({_D}{{4}})-({_D}{{2}})-({_D}{{2}})\Z")
_TIME = re.compile(
    rf"({_D}{{2}}):({_D}{{2}}):({_D}{{2}})(?:\.{_D}+)?(?:[Zz]|([+-])({_D}{{2}}):({_D}{{2}}))\Z"
)
_UUID = re.compile(r"[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}\Z")
_DUR_DATE = rf"(?:{_D}+Y(?:{_D}+M(?:{_D}+D)?)?|{_D}+M(?:{_D}+D)?|{_D}+D)"
_DUR_TIME = rf"T(?:{_D}+H(?:{_D}+M(?:{_D}+S)?)?|{_D}+M(?:{_D}+S)?|{_D}+S)"
_DURATION = re.compile(rf"P(?:{_DUR_DATE}(?:{_DUR_TIME})?|{_DUR_TIME}|{_D}+W)\Z")
_LABEL = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)\Z")
_ATOM = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+\Z")
_QUOTED = re.compile(r'"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\[\x20-\x7e])*"\Z')
_URI_CHARS = re.compile(r"(?:[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*\Z")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
_POINTER = re.compile(r"(?:/(?:[^/~]|~[01])*)*\Z")


def is_date(text: str) -> bool:
    """RFC 3339 full-date: `2026-01-15`, a real day."""
    found = _DATE.match(text)
    if not found:
        return False
    try:
        datetime.date(*(int(part) for part in found.groups()))
    except ValueError:
        return False
    return True


def is_time(text: str) -> bool:
    """RFC 3339 full-time: `10:30:00Z`, `10:30:00.5+02:00` (an offset is required); a
    leap second only at 23:59:60 UTC."""
    found = _TIME.match(text)
    if not found:
        return False
    hour, minute, second = int(found[1]), int(found[2]), int(found[3])
    sign, off_h, off_m = found[4], found[5], found[6]
    offset = (int(off_h) * 60 + int(off_m)) * (1 if sign == "+" else -1) if sign else 0
    if off_h is not None and (int(off_h) > 23 or int(off_m) > 59):
        return False
    if hour > 23 or minute > 59 or second > 60:
        return False
    if second == 60:  # a leap second is the last second of a UTC day
        utc = (hour * 60 + minute - offset) % (24 * 60)
        return utc == 23 * 60 + 59
    return True


def is_date_time(text: str) -> bool:
    """RFC 3339 date-time: a full-date, `T` (or `t`), a full-time."""
    if len(text) < 11 or text[10] not in "Tt":
        return False
    return is_date(text[:10]) and is_time(text[11:])


def is_hostname(text: str) -> bool:
    """RFC 1123 host name: dot-separated labels of letters, digits and inner hyphens;
    `--` in a label's third and fourth places only in an internationalised label
    (`xn--`), whose rest must be valid punycode (IDNA 2008's character rules are not
    checked: that needs Unicode tables the standard library does not have)."""
    if not text or len(text) > 253 or not text.isascii():
        return False
    for label in text.split("."):
        if not _LABEL.match(label):
            return False
        if label[2:4] == "--":
            if label[:4].lower() != "xn--":
                return False
            try:
                decoded = label[4:].encode("ascii").decode("punycode")
            except (UnicodeError, ValueError):
                return False
            if not decoded or decoded[2:4] == "--":
                return False
    return True


def is_ipv4(text: str) -> bool:
    """Dotted-quad IPv4, no leading zeros (ASCII digits only)."""
    if not text.isascii() or not text.replace(".", "").isdigit():
        return False
    import ipaddress

    try:
        ipaddress.IPv4Address(text)
    except ValueError:
        return False
    return True


def is_ipv6(text: str) -> bool:
    """RFC 4291 text form (no zone index)."""
    if not text.isascii() or "%" in text or any(ch.isspace() for ch in text):
        return False
    import ipaddress

    try:
        ipaddress.IPv6Address(text)
    except ValueError:
        return False
    return True


def is_email(text: str) -> bool:
    """RFC 5321 mailbox: a dot-atom or quoted local part, `@`, a host name or an
    address literal (`[192.0.2.1]`, `[IPv6:2001:db8::1]`)."""
    local, at, domain = text.rpartition("@")
    if not at or not local or not domain or len(local) > 64:
        return False
    if not _QUOTED.match(local) and not all(_ATOM.match(part) for part in local.split(".")):
        return False
    if domain.startswith("[") and domain.endswith("]"):
        literal = domain[1:-1]
        return is_ipv6(literal[5:]) if literal.startswith("IPv6:") else is_ipv4(literal)
    return is_hostname(domain)


def is_uri(text: str) -> bool:
    """RFC 3986 URI: a scheme, then an authority (user info, host, numeric port) and a
    path, query and fragment of the characters a URI may hold (percent-encoded
    otherwise); brackets only around an IP literal host."""
    return _uri(text, True)


def is_uri_reference(text: str) -> bool:
    """RFC 3986 URI-reference: a URI or a relative reference (whose first path segment
    holds no `:`)."""
    return _uri(text, False)


def _uri(text: str, absolute: bool) -> bool:
    if not _URI_CHARS.match(text):
        return False
    scheme = _SCHEME.match(text)
    if absolute and not scheme:
        return False
    rest = text[scheme.end() :] if scheme else text
    cut = min((i for i in (rest.find("?"), rest.find("#")) if i >= 0), default=len(rest))
    hier, tail = rest[:cut], rest[cut:]
    if "[" in tail or "]" in tail:
        return False
    path = hier
    if hier.startswith("//"):
        slash = hier.find("/", 2)
        authority = hier[2:] if slash < 0 else hier[2:slash]
        path = "" if slash < 0 else hier[slash:]
        if not _authority(authority):
            return False
    elif not scheme and ":" in path.split("/", 1)[0]:
        return False  # `1:b` would read as a scheme
    return "[" not in path and "]" not in path


_IP_FUTURE = re.compile(r"v[0-9A-Fa-f]+\.[A-Za-z0-9\-._~!$&'()*+,;=:]+\Z")


def _authority(authority: str) -> bool:
    userinfo, _, hostport = authority.rpartition("@")
    if "@" in userinfo or "[" in userinfo or "]" in userinfo:
        return False
    if hostport.startswith("["):
        close = hostport.find("]")
        if close < 0:
            return False
        literal, port = hostport[1:close], hostport[close + 1 :]
        if not (is_ipv6(literal) or _IP_FUTURE.match(literal)):
            return False
        if port and not port.startswith(":"):
            return False
        port = port[1:]
    else:
        host, _, port = hostport.partition(":")
        if "[" in host or "]" in host:
            return False
    return not port or (port.isdigit() and port.isascii())


def is_uuid(text: str) -> bool:
    """RFC 4122 text form: 8-4-4-4-12 hexadecimal digits."""
    return bool(_UUID.match(text))


def is_duration(text: str) -> bool:
    """RFC 3339 appendix A duration: `P1Y2M3DT4H5M6S`, `PT30M`, `P2W`."""
    return bool(_DURATION.match(text))


def is_json_pointer(text: str) -> bool:
    """RFC 6901 JSON Pointer: empty, or `/`-separated tokens with `~0`/`~1` escapes."""
    return bool(_POINTER.match(text))


def is_regex(text: str) -> bool:
    """A regular expression that compiles (Python's dialect, as `pattern` uses)."""
    try:
        re.compile(text)
    except (re.error, RecursionError, OverflowError):
        return False
    return True


CHECKS: dict[str, Callable[[str], bool]] = {
    "date-time": is_date_time,
    "date": is_date,
    "time": is_time,
    "duration": is_duration,
    "email": is_email,
    "hostname": is_hostname,
    "ipv4": is_ipv4,
    "ipv6": is_ipv6,
    "uri": is_uri,
    "uri-reference": is_uri_reference,
    "uuid": is_uuid,
    "json-pointer": is_json_pointer,
    "regex": is_regex,
}


def conforms(name: str, value: Any) -> bool:
    """Whether `value` is a `name` (a format not in CHECKS, or a non-string, passes)."""
    check = CHECKS.get(name)
    if check is None:
        return True
    if isinstance(value, datetime.date):  # a YAML date or timestamp: its ISO 8601 text
        value = value.isoformat()
    if not isinstance(value, str) or isinstance(value, bool):
        return True
    return check(value)


def format_checker() -> Any:
    """A jsonschema `FormatChecker` with exactly these checks (the fallback's)."""
    from jsonschema import FormatChecker

    checker = FormatChecker(formats=())
    for name in CHECKS:
        checker.checks(name)(lambda value, name=name: conforms(name, value))
    return checker
