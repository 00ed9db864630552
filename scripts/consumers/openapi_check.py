"""Checks the API's OpenAPI document with openapi-spec-validator, then validates real request
and response bodies against the schemas the document gives them (JSON Schema 2020-12).

Usage: openapi_check.py DOCUMENT.json EXCHANGES.json, where EXCHANGES is a list of
{"method", "path", "status", "request", "response"} as the API answered them (run by
server/tests/suite/api.rs with the validator that scripts/setup.sh installs into .tools/openapi).
A request or response of null is not checked."""
import json
import sys

from jsonschema import Draft202012Validator
from openapi_spec_validator import validate


def schema_of(document, content):
    """The schema of a JSON body, resolvable against the whole document."""
    schema = content["application/json"]["schema"]
    if isinstance(schema, bool):
        return schema
    return {**schema, "components": document["components"]}


def response_content(document, operation, status):
    response = operation["responses"][str(status)]
    if "$ref" in response:
        response = document["components"]["responses"][response["$ref"].rsplit("/", 1)[1]]
    return response["content"]


def errors(document, schema, body):
    validator = Draft202012Validator(schema)
    return [
        f"{'/'.join(map(str, e.absolute_path)) or '(body)'}: {e.message[:300]}"
        for e in validator.iter_errors(body)
    ]


def main(document_path, exchanges_path):
    document = json.load(open(document_path))
    validate(document)
    failures = []
    for exchange in json.load(open(exchanges_path)):
        operation = document["paths"][exchange["path"]][exchange["method"]]
        where = f"{exchange['method']} {exchange['path']} {exchange['status']}"
        if exchange["request"] is not None:
            schema = schema_of(document, operation["requestBody"]["content"])
            failures += [f"{where} request {e}" for e in errors(document, schema, exchange["request"])]
        if exchange["response"] is not None:
            content = response_content(document, operation, exchange["status"])
            schema = schema_of(document, content)
            failures += [f"{where} response {e}" for e in errors(document, schema, exchange["response"])]
    if failures:
        print("\n".join(failures[:40]))
        sys.exit(1)


if __name__ == "__main__":
    main(*sys.argv[1:])
