"""Where a `$ref` points, for every draft 2020-12 reference form inside one document.

A reference is resolved against the base URI of the schema node holding it: the
document's, or the nearest `$id` around it (an `$id` makes a node a resource of its
own, so `"$ref": "item.json"` may name a sibling resource by its `$id`). Its fragment
is empty (the resource itself), a JSON Pointer (percent-encoded in the URI, then `~1`
for `/` and `~0` for `~`, array items by index), or a plain name given by an
`$anchor`. Anything outside the document (another file, a URL nobody defines here) is
`Unresolvable`: a user's schema is refused with it, the evaluator never fetches.

Plain-name anchors are written per draft (the root's `$schema`; 2020-12 when it has
none): `$anchor` (and 2020-12's `$dynamicAnchor`) from draft 2019-09 on; before, an
identifier with a fragment, `"$id": "#foo"` (draft-06/07) or `"id": "#foo"` (draft-04),
names its node `foo` in the resource around it. Up to draft-07 a node holding `$ref` is
only that reference: an identifier beside it is ignored, as those drafts say.

Only the keywords that hold subschemas are walked for `$id` and `$anchor`: an `$id`
inside an `enum` or `const` value is data, not an identifier.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only; typing costs start-up time
    from typing import Any

# the keywords of draft 2020-12 (and the older `definitions`, `additionalItems`) whose
# values are subschemas: a map of them, a list of them, or one
_SCHEMA_MAPS = frozenset(
    {
        "properties",
        "patternProperties",
        "$defs",
        "definitions",
        "dependentSchemas",
        "dependencies",  # draft-07 and before: a map of schemas (or lists of names)
    }
)
# `$schema` of the drafts before 2019-09 (with or without `#`, http or https) -> the
# keyword naming a resource: their anchors are identifiers with a fragment
_OLD_DRAFTS = {
    "json-schema.org/draft-03/schema": "id",
    "json-schema.org/draft-04/schema": "id",
    "json-schema.org/draft-06/schema": "$id",
    "json-schema.org/draft-07/schema": "$id",
}
_SCHEMA_LISTS = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
_SCHEMA_ONE = frozenset(
    {
        "items",
        "additionalItems",
        "additionalProperties",
        "not",
        "if",
        "then",
        "else",
        "contains",
        "propertyNames",
        "unevaluatedItems",
        "unevaluatedProperties",
        "contentSchema",
    }
)


class Unresolvable(Exception):
    """A `$ref` that names nothing inside the document."""

    def __init__(self, ref: str) -> None:
        super().__init__(ref)
        self.ref = ref


def _join(base: str, ref: str) -> str:
    """`ref` resolved against `base` (RFC 3986, as URI libraries do)."""
    if ref.startswith("#"):
        return base.partition("#")[0] + ref
    if not base:
        return ref
    from urllib.parse import urljoin

    return urljoin(base, ref)


def old_draft(schema: Any) -> str | None:
    """The identifier keyword (`id` or `$id`) of a draft before 2019-09 that `schema`
    declares in `$schema`, else None (2019-09, 2020-12, or no `$schema`)."""
    declared = schema.get("$schema") if isinstance(schema, dict) else None
    if not isinstance(declared, str):
        return None
    return _OLD_DRAFTS.get(declared.partition("://")[2].rstrip("#"))


class References:
    """The resources (`$id`), anchors and base URIs of one schema document."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self._base: dict[int, str] = {}  # id(schema node) -> its base URI
        self._resources: dict[str, Any] = {}
        self._anchors: dict[tuple[str, str], Any] = {}
        old = old_draft(root)
        self._ident = old or "$id"  # the keyword naming a resource
        self._old = old is not None  # anchors are identifiers' fragments; $ref stands alone
        self._walk(root, "")
        self._resources.setdefault("", root)

    def _walk(self, node: Any, base: str) -> None:
        todo = [(node, base)]
        while todo:
            node, base = todo.pop()
            if not isinstance(node, dict) or id(node) in self._base:
                continue
            ident = node.get(self._ident)
            if self._old and "$ref" in node:
                ident = None  # up to draft-07 everything beside a $ref is ignored
            if isinstance(ident, str):
                uri, _, fragment = _join(base, ident).partition("#")
                if fragment and self._old:  # "#foo" (or "other.json#foo"): an anchor
                    if not ident.startswith("#"):
                        self._resources.setdefault(uri, node)
                    base = uri
                    if not fragment.startswith("/"):
                        self._anchors.setdefault((uri, fragment), node)
                else:
                    base = uri
                    self._resources.setdefault(base, node)
            self._base[id(node)] = base
            for keyword in () if self._old else ("$anchor", "$dynamicAnchor"):
                anchor = node.get(keyword)
                if isinstance(anchor, str):
                    self._anchors.setdefault((base, anchor), node)
            for key, value in node.items():
                if key in _SCHEMA_MAPS:
                    if isinstance(value, dict):
                        todo.extend((sub, base) for sub in value.values())
                elif isinstance(value, list):  # `items` too, in an older draft's tuple form
                    if key in _SCHEMA_LISTS or key in _SCHEMA_ONE:
                        todo.extend((sub, base) for sub in value)
                elif key in _SCHEMA_ONE:
                    todo.append((value, base))

    def base(self, node: Any) -> str:
        """The base URI a reference in `node` is resolved against."""
        return self._base.get(id(node), "")

    def lookup(self, ref: str, base: str = "") -> Any:
        """The schema node `ref` names, read from `base`; raises Unresolvable."""
        uri, _, fragment = _join(base, ref).partition("#")
        node = self._resources.get(uri)
        if node is None:
            raise Unresolvable(ref)
        if "%" in fragment:  # urllib costs start-up: only for a fragment that needs it
            from urllib.parse import unquote

            fragment = unquote(fragment)
        if not fragment:
            return node
        if not fragment.startswith("/"):
            found = self._anchors.get((uri, fragment))
            if found is None:
                raise Unresolvable(ref)
            return found
        where = uri
        for part in fragment[1:].split("/"):
            key = part.replace("~1", "/").replace("~0", "~")
            if isinstance(node, dict) and key in node:
                node = node[key]
            elif isinstance(node, list) and _index(key, len(node)):
                node = node[int(key)]
            else:
                raise Unresolvable(ref)
            where = self._base.get(id(node), where)
        if isinstance(node, dict) and id(node) not in self._base:
            self._walk(node, where)  # reached through a keyword not walked: it keeps its base
        return node

    def resolves(self, ref: str, base: str = "") -> bool:
        try:
            self.lookup(ref, base)
        except Unresolvable:
            return False
        return True


def _index(key: str, length: int) -> bool:
    """A JSON Pointer array index: digits, no leading zero, inside the array."""
    return key.isdigit() and key.isascii() and (key == "0" or key[0] != "0") and int(key) < length
