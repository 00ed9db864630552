"""Reads YAML files as a YAML 1.1 reader does (PyYAML, as Ansible and pyavd read them) and
prints, for each, its documents' top-level keys as JSON: what a consumer would see, so that a
test can hold it to exactly what was written.

Usage: yaml_documents.py FILE... (run by engine/tests/suite/handoff_consumers with the Python of the
pyavd environment that scripts/setup.sh installs into .tools/pyavd)."""
import json
import sys

import yaml

out = {}
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        out[path] = [sorted((doc or {}).keys()) for doc in yaml.safe_load_all(f)]
print(json.dumps(out))
