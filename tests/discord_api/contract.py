"""Discord's contract for what the bot sends: every request body SimCord records is checked against
Discord's published OpenAPI description (``openapi.json`` beside this file, see its README.md).

``Contract.check(method, path, body)`` maps a concrete API path (``/channels/123/messages``) to the
spec's operation (``POST /channels/{channel_id}/messages``), validates the body against that
operation's request schema (JSON Schema 2020-12, the spec's ``$ref``s resolved with the whole spec as
the root) and returns one ``Violation`` per rejected field, naming the route, the field and the limit.
A few limits that Discord's documentation states but the spec does not encode (its schemas are shared
between users and bots, or the limit spans several fields) are checked by ``documented_limits``.
"""

from __future__ import annotations

import copy
import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

HERE = Path(__file__).parent
SPEC_PATH = HERE / "openapi.json"
#: The discord/discord-api-spec commit ``openapi.json`` was copied from (specs/openapi.json there).
SPEC_COMMIT = "74fda0fad044407ea280043a03ffc9bc64c4e49e"
SPEC_URI = "urn:discord-api-spec:openapi.json"

#: Message flag IS_COMPONENTS_V2: the message's layout is made of components (no content, no embeds,
#: up to 40 components); without it, at most 5 action rows.
IS_COMPONENTS_V2 = 1 << 15
#: Documented in Discord's message resource: "up to 2000 characters" (the spec allows 4000 on a
#: channel message: its schema is shared with users who may send more).
CONTENT_LIMIT = 2000
#: Documented in Discord's message resource: up to 5 action rows on a message without IS_COMPONENTS_V2.
ACTION_ROWS_LIMIT = 5
#: Documented in Discord's embed limits: title, description, field names and values, footer text and
#: author name together count at most 6000 characters over all the embeds of a message.
EMBEDS_TOTAL_LIMIT = 6000

_API_PREFIX = re.compile(r"^(?:https?://[^/]+)?(?:/api)?(?:/v\d+)?")


@dataclass(frozen=True)
class Violation:
    """One part of a request body that Discord would reject."""

    method: str
    path: str  # the concrete path the bot called
    route: str  # the spec's path template, or the path when the spec has no such operation
    field: str  # where in the body, as a JSON path ("$.data.components[0].components[0].options")
    rule: str  # the JSON Schema keyword that failed ("maxLength", "maxItems", …) or a documented limit
    limit: Any  # that keyword's value (2000, 25, …)
    message: str

    def __str__(self) -> str:
        return f"{self.method} {self.route}: {self.field}: {self.message} (limit: {self.rule} {self.limit!r})"


@dataclass(frozen=True)
class Operation:
    """One operation of the spec: its method, path template and request body schema (None: no body)."""

    method: str
    template: str
    segments: tuple[str, ...]
    literals: int
    schema_pointer: str | None  # a JSON pointer into the spec, or None when the operation takes no body


def _loosen_snowflakes(spec: dict[str, Any]) -> dict[str, Any]:
    """The spec with its snowflake type also accepting non-negative JSON integers.

    The spec types a snowflake as a decimal string; discord.py sends some as integers (the ids in
    ``allowed_mentions``, ``message_reference``), and Discord's API takes both (its spec README:
    "Our API accepts strings for int fields if they are parseable as ints", and the converse for
    snowflakes has always held). This is the only change made to the published schemas."""
    spec = copy.deepcopy(spec)
    snowflake = spec["components"]["schemas"]["SnowflakeType"]
    snowflake["type"] = ["string", "integer"]
    snowflake["minimum"] = 0  # applies to integers only; the pattern applies to strings only
    return spec


def _pointer(*parts: str) -> str:
    return "#/" + "/".join(part.replace("~", "~0").replace("/", "~1") for part in parts)


def _body_schema(method: str, template: str, operation: dict[str, Any]) -> str | None:
    """A JSON pointer to the operation's JSON request body schema (the multipart form's
    ``payload_json`` holds the same JSON), or None when the operation takes no body."""
    content = operation.get("requestBody", {}).get("content", {})
    for media in ("application/json", "multipart/form-data"):
        if media in content:
            return _pointer("paths", template, method.lower(), "requestBody", "content", media, "schema")
    return None


_NULL = object()  # the kind of a null instance
_ANNOTATIONS = {"const", "title", "description"}
_VALID_KEPT = 20_000  # components remembered valid, at most (a few MB)
_LOCAL_REF = "#/"


class Unions:
    """The spec's unions (``oneOf``/``anyOf``) checked by the kind of the instance, when its kind
    picks one branch: ``null`` against ``{"type": "null"}`` and the one other branch, an object by
    its ``type`` discriminator (the components, the interaction callbacks: their branches' ``type``
    enums are disjoint). Only that branch is validated, so the union accepts and rejects exactly what
    ``oneOf`` and ``anyOf`` would, several times faster, and its errors are the branch's own (the
    field and the limit rather than "is not valid under any of the given schemas"). Any other
    instance goes to jsonschema's own keyword."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self._kinds: dict[int, tuple[bool, dict[Any, int], int | None] | None] = {}
        self._consts: dict[int, frozenset[tuple[type, Any]] | None] = {}
        self._valid: set[tuple[int, str]] = set()  # (branch, instance) found valid

    def _resolve(self, schema: Any) -> Any:
        while isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and len(schema) == 1:
            ref = schema["$ref"]
            if not ref.startswith(_LOCAL_REF):
                return None
            node: Any = self.spec
            for part in ref[len(_LOCAL_REF):].split("/"):
                node = node[part.replace("~1", "/").replace("~0", "~")]
            schema = node
        return schema

    def kinds(self, branches: list[Any]) -> tuple[bool, dict[Any, int], int | None] | None:
        """(a null branch?, the branch of each ``type`` value, the one non-null branch when there
        is one) for a union, or None when its branches are not told apart by kind."""
        key = id(branches)
        if key not in self._kinds:
            self._kinds[key] = self._find_kinds(branches)
        return self._kinds[key]

    def _find_kinds(self, branches: list[Any]) -> tuple[bool, dict[Any, int], int | None] | None:
        if all(isinstance(b, dict) and "const" in b and set(b) <= _ANNOTATIONS for b in branches):
            return None  # an enumeration (MessageComponentTypes): see consts()
        nullable = False
        by_type: dict[Any, int] = {}
        others: list[int] = []
        discriminated = True
        for index, branch in enumerate(branches):
            if branch == {"type": "null"}:
                nullable = True
                continue
            others.append(index)
            schema = self._resolve(branch)
            prop = schema.get("properties", {}).get("type", {}) if isinstance(schema, dict) else {}
            values = prop.get("enum", [prop["const"]] if "const" in prop else [])
            if not values or any(v in by_type for v in values) or schema.get("type") != "object":
                discriminated = False
            for value in values:
                by_type.setdefault(value, index)
        if len(others) == 1:
            schema = self._resolve(branches[others[0]])
            kind = schema.get("type") if isinstance(schema, dict) else None
            if nullable and (kind is None or "null" in (kind if isinstance(kind, list) else [kind])):
                return None  # null might pass both branches: let jsonschema count them
            return nullable, {}, others[0]
        if not discriminated or not by_type:
            return None
        return nullable, by_type, None

    def consts(self, branches: list[Any]) -> frozenset[tuple[type, Any]] | None:
        """The values of a union of constants (the spec's enumerations: ``MessageComponentTypes``,
        ``ButtonStyleTypes``), with their JSON type; None for any other union."""
        key = id(branches)
        if key not in self._consts:
            self._consts[key] = (
                frozenset((type(b["const"]), b["const"]) for b in branches)
                if all(isinstance(b, dict) and "const" in b and set(b) <= _ANNOTATIONS for b in branches)
                else None
            )
        return self._consts[key]

    def keyword(self, original: Any) -> Any:
        """A ``oneOf``/``anyOf`` keyword function that picks the branch by kind, else ``original``."""

        def union(validator: Any, branches: list[Any], instance: Any, schema: Any) -> Any:
            values = self.consts(branches)
            if values is not None and (type(instance), instance) in values:
                return  # one of the constants: valid (else the original keyword says which are allowed)
            kinds = self.kinds(branches)
            if kinds is not None:
                nullable, by_type, single = kinds
                if instance is None and nullable:
                    return
                if instance is not None and single is not None:
                    yield from validator.descend(instance, branches[single], schema_path=single)
                    return
                if isinstance(instance, dict) and by_type:
                    kind = instance.get("type", _NULL)
                    if isinstance(kind, int | str) and not isinstance(kind, bool) and kind in by_type:
                        index = by_type[kind]
                        key = (id(branches[index]), json.dumps(instance, sort_keys=True, default=repr))
                        if key in self._valid:
                            return  # the same component, seen valid before (a turn's buttons, re-sent)
                        errors = list(validator.descend(instance, branches[index], schema_path=index))
                        if not errors:
                            if len(self._valid) >= _VALID_KEPT:
                                self._valid.clear()
                            self._valid.add(key)
                        yield from errors
                        return
            yield from original(validator, branches, instance, schema)

        return union


class Contract:
    """Validates request bodies against the spec; counts what it validated per route."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = _loosen_snowflakes(spec)
        unions = Unions(self.spec)
        base = Draft202012Validator.VALIDATORS
        keywords = {name: unions.keyword(base[name]) for name in ("oneOf", "anyOf")}
        self._validator_class = validators.extend(Draft202012Validator, keywords)
        resource = Resource.from_contents(self.spec, default_specification=DRAFT202012)
        self.registry: Registry[Any] = Registry().with_resource(SPEC_URI, resource)
        self.operations: dict[str, list[Operation]] = {}
        for template, item in self.spec["paths"].items():
            for method, operation in item.items():
                if method.upper() not in {"GET", "POST", "PUT", "PATCH", "DELETE"}:
                    continue
                segments = tuple(template.strip("/").split("/"))
                literals = sum(not s.startswith("{") for s in segments)
                schema = _body_schema(method, template, operation)
                self.operations.setdefault(method.upper(), []).append(
                    Operation(method.upper(), template, segments, literals, schema)
                )
        for ops in self.operations.values():  # the most literal template first: "@me" beats "{user_id}"
            ops.sort(key=lambda op: -op.literals)
        self._validators: dict[str, Any] = {}
        #: Bodies validated, per (method, path template).
        self.validated: Counter[tuple[str, str]] = Counter()

    def operation(self, method: str, path: str) -> Operation | None:
        """The spec's operation for a concrete API path (with or without the ``/api/v10`` prefix)."""
        segments = tuple(_API_PREFIX.sub("", path.split("?")[0]).strip("/").split("/"))
        for op in self.operations.get(method.upper(), ()):
            if len(op.segments) == len(segments) and all(
                t.startswith("{") or t == s for t, s in zip(op.segments, segments, strict=True)
            ):
                return op
        return None

    def _validator(self, pointer: str) -> Any:
        validator = self._validators.get(pointer)
        if validator is None:
            validator = self._validator_class({"$ref": SPEC_URI + pointer}, registry=self.registry)
            self._validators[pointer] = validator
        return validator

    def check(self, method: str, path: str, body: Any) -> list[Violation]:
        """Every way ``body`` (the JSON body, or a multipart request's ``payload_json``) sent as
        ``method path`` breaks Discord's contract; [] when Discord would accept it. A request with
        no body has nothing to check."""
        if body is None:
            return []
        op = self.operation(method, path)
        if op is None:
            return [Violation(method, path, path, "$", "operation", None,
                              "the spec has no such operation (is the route right?)")]
        if op.schema_pointer is None:
            return [Violation(method, path, op.template, "$", "requestBody", None,
                              "this operation takes no request body")]
        self.validated[(op.method, op.template)] += 1
        errors = sorted(self._validator(op.schema_pointer).iter_errors(body), key=lambda e: e.json_path)
        found = [v for error in errors for v in _violations(op, path, error)]
        seen = {(v.field, v.rule) for v in found}
        found += [Violation(op.method, path, op.template, field, rule, limit, message)
                  for field, rule, limit, message in documented_limits(op, body) if (field, rule) not in seen]
        return found

    def check_log(self, entries: Iterable[Any]) -> list[Violation]:
        """Every violation in SimCord's request log (``env.http_requests``: method, path, json)."""
        return [v for entry in entries for v in self.check(entry.method, entry.path, entry.json)]


def _is_other_kind(errors: list[ValidationError], depth: int) -> bool:
    """Whether a union branch's errors say the body is of another kind than the branch: a wrong
    JSON type at the branch's own level, or a wrong ``type`` discriminator just below it."""
    for e in errors:
        here = len(e.absolute_path) - depth
        if e.validator == "type" and here == 0:
            return True
        if e.validator in {"enum", "const"} and here == 1 and e.absolute_path[-1] == "type":
            return True
    return False


def _innermost(error: ValidationError) -> list[ValidationError]:
    """The errors to report for one jsonschema error. Under a union (the components' ``oneOf``, the
    interaction callback's ``anyOf``) these are the errors of the branch the body meant, the one
    whose kind it has, found the same way inside; the union's own error when it has no such branch."""
    if not error.context or error.validator not in {"anyOf", "oneOf"}:
        return [error]
    branches: dict[Any, list[ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    depth = len(error.absolute_path)
    meant = [errors for errors in branches.values() if not _is_other_kind(errors, depth)]
    if len(meant) != 1:
        return [error]  # no branch of its kind, or several (then the union itself is the problem)
    return [leaf for sub in meant[0] for leaf in _innermost(sub)]


def _describe(error: ValidationError) -> str:
    """A short message: sizes rather than the whole too-long value."""
    limit, value = error.validator_value, error.instance
    if error.validator in {"maxLength", "minLength"} and isinstance(value, str):
        return f"{len(value)} characters, the limit is {limit}"
    if error.validator in {"maxItems", "minItems"} and isinstance(value, list):
        return f"{len(value)} items, the limit is {limit}"
    return error.message if len(error.message) <= 200 else error.message[:200] + "…"


def _violations(op: Operation, path: str, error: ValidationError) -> list[Violation]:
    """The Violations a jsonschema error stands for."""
    return [
        Violation(op.method, path, op.template, e.json_path, str(e.validator),
                  None if e.validator in {"anyOf", "oneOf"} else e.validator_value, _describe(e))
        for e in _innermost(error)
    ]


def _messages(op: Operation, body: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """The message payloads inside a body, with their JSON path: the body itself, or an interaction
    callback's ``data`` when it carries a message (types 4 and 7)."""
    if op.template.endswith("/callback"):
        if body.get("type") in (4, 7) and isinstance(body.get("data"), dict):
            yield "$.data", body["data"]
    elif "/messages" in op.template or op.template.startswith("/webhooks/"):
        yield "$", body


def documented_limits(op: Operation, body: Any) -> Iterator[tuple[str, str, Any, str]]:
    """Limits Discord documents for every message a bot sends but the spec does not encode:
    (field, rule, limit, message) for each one broken."""
    if not isinstance(body, dict):
        return
    for where, message in _messages(op, body):
        content = message.get("content")
        if isinstance(content, str) and len(content) > CONTENT_LIMIT:
            yield (f"{where}.content", "maxLength", CONTENT_LIMIT,
                   f"{len(content)} characters, the limit is {CONTENT_LIMIT}")
        components = message.get("components")
        flags = message.get("flags") or 0
        legacy = not flags & IS_COMPONENTS_V2
        if isinstance(components, list) and legacy and len(components) > ACTION_ROWS_LIMIT:
            yield (f"{where}.components", "maxItems", ACTION_ROWS_LIMIT,
                   f"{len(components)} action rows, the limit is {ACTION_ROWS_LIMIT} "
                   "(no IS_COMPONENTS_V2 flag)")
        embeds = message.get("embeds")
        if isinstance(embeds, list):
            total = sum(_embed_characters(e) for e in embeds if isinstance(e, dict))
            if total > EMBEDS_TOTAL_LIMIT:
                yield (f"{where}.embeds", "maxCharacters", EMBEDS_TOTAL_LIMIT,
                       f"the embeds' texts count {total} characters, the limit is {EMBEDS_TOTAL_LIMIT}")


def _embed_characters(embed: dict[str, Any]) -> int:
    """The characters of an embed that count towards Discord's 6000 over a message's embeds."""
    def text(value: Any) -> int:
        return len(value) if isinstance(value, str) else 0

    fields = embed.get("fields") or []
    return (
        text(embed.get("title")) + text(embed.get("description"))
        + text((embed.get("footer") or {}).get("text")) + text((embed.get("author") or {}).get("name"))
        + sum(text(f.get("name")) + text(f.get("value")) for f in fields if isinstance(f, dict))
    )


@cache
def contract() -> Contract:
    """The spec beside this file, loaded once per process."""
    return Contract(json.loads(SPEC_PATH.read_text(encoding="utf-8")))
