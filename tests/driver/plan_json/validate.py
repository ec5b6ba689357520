#!/usr/bin/env python3
"""A JSON Schema (draft 2020-12) validator for the keywords docs/plan-schema.json uses.

Neither this machine's Python nor Debian 12's ships the `jsonschema` package, so the plan tests
validate with this one; plan_json_test.py also runs `jsonschema` when it can be imported, as a
cross-check. The validator knows exactly these keywords and refuses a schema using any other
(so the schema cannot lean on a keyword that would be silently ignored here):
  applicators  $ref (to "#" or "#/<json pointer>"), oneOf, anyOf, properties,
               additionalProperties (boolean or schema), items (one schema for every element)
  assertions   type (a name or a list of names), required, enum, const, minimum, minItems, maxItems
  annotations  $schema, $id, $defs, $comment, title, description (no effect on validation)
`enum` and `const` compare as JSON does: true is not 1, 1 equals 1.0; `integer` accepts 1.0 but
not true (Python's bool is an int).

Usage:
  validate.py SCHEMA DOCUMENT...   exit 0 when every document is valid; else one line per error
                                   (`DOCUMENT: /json/pointer: message`) and exit 1
  validate.py --self-test          every keyword accepts what it must and rejects what it must
                                   (cross-checked against `jsonschema` when it is importable)
"""
import json
import sys

ANNOTATIONS = {"$schema", "$id", "$defs", "$comment", "title", "description"}
KEYWORDS = ANNOTATIONS | {"$ref", "oneOf", "anyOf", "properties", "additionalProperties", "items", "type",
                          "required", "enum", "const", "minimum", "minItems", "maxItems"}
TYPES = {"null", "boolean", "object", "array", "number", "integer", "string"}


class SchemaError(Exception):
    """The schema itself is malformed or uses an unsupported keyword."""


def json_type_of(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "integer"
    if isinstance(v, float):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    if isinstance(v, dict):
        return "object"
    raise TypeError(f"not a JSON value: {v!r}")


def has_type(v, name):
    t = json_type_of(v)
    if name == "number":
        return t in ("integer", "number")
    if name == "integer":
        return t == "integer" or (t == "number" and v == int(v))
    return t == name


def json_equal(a, b):
    ta, tb = json_type_of(a), json_type_of(b)
    if ta in ("integer", "number") and tb in ("integer", "number"):
        return a == b
    if ta != tb:
        return False
    if ta == "array":
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b))
    if ta == "object":
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    return a == b


def pointer_escape(key):
    return str(key).replace("~", "~0").replace("/", "~1")


class Validator:
    def __init__(self, schema):
        self.root = schema
        self.check_schema(schema, "#")

    # ---- the schema ---------------------------------------------------------------------------
    def check_schema(self, s, where):
        if isinstance(s, bool):
            return
        if not isinstance(s, dict):
            raise SchemaError(f"{where}: a schema must be an object or a boolean")
        for k, v in s.items():
            if k not in KEYWORDS:
                raise SchemaError(f"{where}: unsupported keyword '{k}'")
            if k == "$defs":
                for name, sub in v.items():
                    self.check_schema(sub, f"{where}/$defs/{name}")
            elif k in ("oneOf", "anyOf"):
                if not isinstance(v, list) or not v:
                    raise SchemaError(f"{where}/{k}: must be a non-empty array")
                for i, sub in enumerate(v):
                    self.check_schema(sub, f"{where}/{k}/{i}")
            elif k == "properties":
                for name, sub in v.items():
                    self.check_schema(sub, f"{where}/properties/{name}")
            elif k in ("additionalProperties", "items"):
                self.check_schema(v, f"{where}/{k}")
            elif k == "type":
                names = v if isinstance(v, list) else [v]
                for n in names:
                    if n not in TYPES:
                        raise SchemaError(f"{where}/type: unknown type '{n}'")
            elif k == "required":
                if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                    raise SchemaError(f"{where}/required: must be an array of strings")
            elif k == "enum":
                if not isinstance(v, list):
                    raise SchemaError(f"{where}/enum: must be an array")
            elif k in ("minimum", "minItems", "maxItems"):
                if not has_type(v, "number"):
                    raise SchemaError(f"{where}/{k}: must be a number")
            elif k == "$ref":
                self.resolve(v, where)

    def resolve(self, ref, where):
        if ref == "#":
            return self.root
        if not ref.startswith("#/"):
            raise SchemaError(f"{where}: only local references are supported, not '{ref}'")
        node = self.root
        for part in ref[2:].split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            if not isinstance(node, dict) or part not in node:
                raise SchemaError(f"{where}: $ref '{ref}' points nowhere")
            node = node[part]
        return node

    # ---- an instance --------------------------------------------------------------------------
    def errors(self, instance):
        """[(json pointer, message)], empty when `instance` is valid."""
        out = []
        self.validate(self.root, instance, "", out)
        return out

    def validate(self, s, v, path, out):
        if s is True:
            return
        if s is False:
            out.append((path, "no value is allowed here"))
            return
        if "$ref" in s:
            self.validate(self.resolve(s["$ref"], path), v, path, out)
        if "type" in s:
            names = s["type"] if isinstance(s["type"], list) else [s["type"]]
            if not any(has_type(v, n) for n in names):
                out.append((path, f"{json.dumps(v)[:60]} is not of type {' or '.join(names)}"))
                return  # the other keywords would only repeat the mismatch
        if "const" in s and not json_equal(v, s["const"]):
            out.append((path, f"{json.dumps(v)[:60]} is not the constant {json.dumps(s['const'])}"))
        if "enum" in s and not any(json_equal(v, e) for e in s["enum"]):
            out.append((path, f"{json.dumps(v)[:60]} is not one of {json.dumps(s['enum'])}"))
        if "minimum" in s and has_type(v, "number") and v < s["minimum"]:
            out.append((path, f"{v} is less than the minimum {s['minimum']}"))
        if isinstance(v, list):
            if "minItems" in s and len(v) < s["minItems"]:
                out.append((path, f"{len(v)} item(s), fewer than {s['minItems']}"))
            if "maxItems" in s and len(v) > s["maxItems"]:
                out.append((path, f"{len(v)} item(s), more than {s['maxItems']}"))
            if "items" in s:
                for i, x in enumerate(v):
                    self.validate(s["items"], x, f"{path}/{i}", out)
        if isinstance(v, dict):
            for k in s.get("required", []):
                if k not in v:
                    out.append((path, f"required property '{k}' is missing"))
            props = s.get("properties", {})
            for k, x in v.items():
                if k in props:
                    self.validate(props[k], x, f"{path}/{pointer_escape(k)}", out)
                elif "additionalProperties" in s:
                    extra = s["additionalProperties"]
                    if extra is False:
                        out.append((path, f"property '{k}' is not allowed"))
                    else:
                        self.validate(extra, x, f"{path}/{pointer_escape(k)}", out)
        if "anyOf" in s:
            branches = [self.branch(b, v, path) for b in s["anyOf"]]
            if all(branches):
                out.append((path, "matches none of the anyOf alternatives: " + self.summary(branches)))
        if "oneOf" in s:
            branches = [self.branch(b, v, path) for b in s["oneOf"]]
            passed = sum(1 for b in branches if not b)
            if passed == 0:
                out.append((path, "matches none of the oneOf alternatives: " + self.summary(branches)))
            elif passed > 1:
                out.append((path, f"matches {passed} of the oneOf alternatives, not exactly one"))

    def branch(self, s, v, path):
        errs = []
        self.validate(s, v, path, errs)
        return errs

    @staticmethod
    def summary(branches):
        """Each alternative's first error; the alternative whose errors are deepest usually is the
        one the document meant, so they are listed deepest first."""
        firsts = sorted((b[0] for b in branches), key=lambda e: -e[0].count("/"))
        return "; ".join(f"[{p or '/'}] {m}" for p, m in firsts)


def load_json(path):
    """The document at `path`; duplicate keys are an error (json.load would keep the last)."""
    def no_duplicates(pairs):
        keys = [k for k, _ in pairs]
        dups = sorted({k for k in keys if keys.count(k) > 1})
        if dups:
            raise ValueError(f"duplicate key(s) {', '.join(dups)}")
        return dict(pairs)
    with open(path, encoding="utf-8") as f:
        return json.load(f, object_pairs_hook=no_duplicates)


# ---------------------------------------------------------------------------------- self-test

# (schema, instance, valid?) — every keyword both ways.
CASES = [
    ({"type": "integer"}, 3, True),
    ({"type": "integer"}, 3.0, True),
    ({"type": "integer"}, 3.5, False),
    ({"type": "integer"}, True, False),
    ({"type": "integer"}, "3", False),
    ({"type": "number"}, 3.5, True),
    ({"type": "number"}, False, False),
    ({"type": "boolean"}, False, True),
    ({"type": "boolean"}, 0, False),
    ({"type": "null"}, None, True),
    ({"type": "null"}, 0, False),
    ({"type": "string"}, "", True),
    ({"type": "string"}, None, False),
    ({"type": "array"}, [], True),
    ({"type": "array"}, {}, False),
    ({"type": "object"}, {}, True),
    ({"type": "object"}, [], False),
    ({"type": ["string", "null"]}, None, True),
    ({"type": ["string", "null"]}, "x", True),
    ({"type": ["string", "null"]}, 1, False),
    ({"required": ["a", "b"]}, {"a": 1, "b": 2}, True),
    ({"required": ["a", "b"]}, {"a": 1}, False),
    ({"required": ["a"]}, [1], True),  # applies to objects only
    ({"properties": {"a": {"type": "string"}}}, {"a": "x"}, True),
    ({"properties": {"a": {"type": "string"}}}, {"a": 1}, False),
    ({"properties": {"a": {"type": "string"}}}, {"b": 1}, True),
    ({"properties": {"a": {}}, "additionalProperties": False}, {"a": 1}, True),
    ({"properties": {"a": {}}, "additionalProperties": False}, {"a": 1, "b": 2}, False),
    ({"additionalProperties": {"type": "integer"}}, {"x": 1}, True),
    ({"additionalProperties": {"type": "integer"}}, {"x": "1"}, False),
    ({"items": {"type": "integer"}}, [1, 2], True),
    ({"items": {"type": "integer"}}, [1, "2"], False),
    ({"items": {"type": "integer"}}, {"a": "x"}, True),  # applies to arrays only
    ({"enum": ["a", 1, None]}, None, True),
    ({"enum": ["a", 1, None]}, 1.0, True),
    ({"enum": ["a", 1, None]}, True, False),
    ({"enum": ["a", 1, None]}, "b", False),
    ({"enum": [[1, {"k": False}]]}, [1, {"k": False}], True),
    NESTED_FALSE_IS_NOT_0 := ({"enum": [[1, {"k": False}]]}, [1, {"k": 0}], False),
    ({"const": 1}, 1, True),
    ({"const": 1}, True, False),
    ({"const": "neuronrw-plan"}, "neuronrw-plan", True),
    ({"const": "neuronrw-plan"}, "neuronrw-plan ", False),
    ({"const": {"a": [1]}}, {"a": [1]}, True),
    ({"const": {"a": [1]}}, {"a": [1], "b": 0}, False),
    ({"minimum": 0}, 0, True),
    ({"minimum": 0}, -1, False),
    ({"minimum": 1}, "a", True),  # applies to numbers only
    ({"minItems": 2}, [1, 2], True),
    ({"minItems": 2}, [1], False),
    ({"maxItems": 2}, [1, 2], True),
    ({"maxItems": 2}, [1, 2, 3], False),
    ({"$defs": {"n": {"type": "integer"}}, "$ref": "#/$defs/n"}, 1, True),
    ({"$defs": {"n": {"type": "integer"}}, "$ref": "#/$defs/n"}, "1", False),
    ({"$defs": {"a/b": {"const": 1}}, "$ref": "#/$defs/a~1b"}, 2, False),
    ({"$defs": {"n": {"type": "integer"}}, "$ref": "#/$defs/n", "minimum": 5}, 3, False),  # siblings apply
    ({"type": "array", "items": {"$ref": "#"}}, [[[]]], True),
    ({"type": "array", "items": {"$ref": "#"}}, [[1]], False),
    ({"oneOf": [{"type": "integer"}, {"type": "string"}]}, 1, True),
    ({"oneOf": [{"type": "integer"}, {"type": "string"}]}, None, False),
    ({"oneOf": [{"type": "integer"}, {"minimum": 0}]}, 1, False),  # both match
    ({"oneOf": [{"type": "integer"}, {"minimum": 0}]}, -1, True),
    ({"anyOf": [{"type": "integer"}, {"minimum": 0}]}, 1, True),
    ({"anyOf": [{"type": "integer"}, {"type": "null"}]}, "x", False),
    ({"title": "t", "description": "d", "$comment": "c", "$schema": "https://json-schema.org/draft/2020-12/schema"}, 1, True),
    (True, 1, True),
    (False, 1, False),
    ({"properties": {"a": False}}, {"a": 1}, False),
]

# Cases `jsonschema` gets wrong, so the cross-check skips them (by identity: Python's == is the
# very equality at issue): jsonschema 4.10 (Debian 12's) compares a false nested in an array or
# object equal to 0; JSON Schema's equality does not.
NOT_CROSS_CHECKED = [NESTED_FALSE_IS_NOT_0]

# Schemas the validator must refuse (unsupported keyword, malformed value, dangling reference).
BAD_SCHEMAS = [
    {"pattern": "^a"},
    {"properties": {"a": {"format": "date"}}},
    {"prefixItems": [{}]},
    {"type": "int"},
    {"oneOf": []},
    {"required": "a"},
    {"$ref": "#/$defs/missing"},
    {"$ref": "https://example.com/schema"},
    {"minimum": "0"},
]


def self_test():
    failures = 0
    try:
        import jsonschema  # noqa: F401  (optional cross-check)
        cross = jsonschema.Draft202012Validator
    except ImportError:
        cross = None
        print("jsonschema is not importable: the cases are checked by this validator only")
    for case in CASES:
        schema, instance, valid = case
        errs = Validator(schema).errors(instance)
        ok = (not errs) == valid
        line = f"{json.dumps(schema)} on {json.dumps(instance)}: expected {'valid' if valid else 'invalid'}"
        if not ok:
            failures += 1
            print(f"FAIL {line}, got {errs}")
        if cross is not None and not any(case is c for c in NOT_CROSS_CHECKED) and cross(schema).is_valid(instance) != valid:
            failures += 1
            print(f"FAIL {line}; jsonschema disagrees")
    for schema in BAD_SCHEMAS:
        try:
            Validator(schema)
        except SchemaError:
            continue
        failures += 1
        print(f"FAIL the schema {json.dumps(schema)} should be refused")
    # Error messages name the place and the reason.
    errs = Validator({"properties": {"a/b": {"items": {"type": "integer"}}}}).errors({"a/b": [1, "x"]})
    if errs != [("/a~1b/1", '"x" is not of type integer')]:
        failures += 1
        print(f"FAIL error location and message: {errs}")
    print(f"{len(CASES)} cases, {len(BAD_SCHEMAS)} refused schemas: "
          + ("all passed" if not failures else f"{failures} failure(s)"))
    return 1 if failures else 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    v = Validator(load_json(argv[1]))
    bad = 0
    for path in argv[2:]:
        try:
            doc = load_json(path)
        except ValueError as e:
            print(f"{path}: not JSON: {e}")
            bad += 1
            continue
        for p, m in v.errors(doc):
            print(f"{path}: {p or '/'}: {m}")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
