"""Reads YAML files as a YAML 1.1 reader does (PyYAML, as Ansible and pyavd read them) and
prints, for each, its documents' top-level keys as JSON: what a consumer would see, so that a
test can hold it to exactly what was written.

Usage: yaml_documents.py FILE... (run by engine/tests/suite/handoff_consumers with the Python of the
pyavd environment that scripts/setup.sh installs into .tools/pyavd)."""
import json
import sys

import yaml

def keys(doc):
    """A mapping's keys; a list's items' keys, each as `- key` (an NVUE file is a list of
    operations)."""
    if isinstance(doc, list):
        return sorted(f"- {k}" for item in doc for k in (item or {}))
    return sorted((doc or {}).keys())


out = {}
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        out[path] = [keys(doc) for doc in yaml.safe_load_all(f)]
print(json.dumps(out))
