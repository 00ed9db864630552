"""Feeds every Arista AVD fabric of a hand-off bundle's `avd/` folder to Arista's own pyavd:
the inputs must validate, and every switch must get an EOS configuration that carries the
design's lossless QoS profile where the fabric has one, on every port LOSSLESS_PORTS lists for
it (`{fabric file: {switch: [EOS interface]}}`: the RoCE-carrying ports, host-facing included),
and no user account (the inputs define none: one in a configuration came from text of the
design).

Usage: avd_check.py AVD_FOLDER LOSSLESS_PORTS.json (run by engine/tests/suite/handoff_consumers with
the pyavd that scripts/setup.sh installs into .tools/pyavd)."""
import json
import pathlib
import sys

import pyavd
import yaml

def hosts(group, vars_):
    """(hostname, variables) of every host of an Ansible-style inventory group."""
    vars_ = {**vars_, **(group.get("vars") or {})}
    for name in (group.get("hosts") or {}):
        yield name, vars_
    for child in (group.get("children") or {}).values():
        yield from hosts(child or {}, vars_)

def interfaces(config):
    """Each `interface` block of an EOS configuration: name -> its lines."""
    blocks, name = {}, None
    for line in config.splitlines():
        if line.startswith("interface "):
            name = line.split(None, 1)[1]
            blocks[name] = []
        elif name and line.startswith(" "):
            blocks[name].append(line.strip())
        else:
            name = None
    return blocks

def check(folder, lossless):
    failures = []
    for fabric in sorted(pathlib.Path(folder).glob("*.yml")):
        if fabric.name.endswith("-inventory.yml"):
            continue
        inventory = yaml.safe_load(fabric.with_name(fabric.stem + "-inventory.yml").read_text())
        fabric_vars = yaml.safe_load(fabric.read_text())
        inputs = {name: {**fabric_vars, **vars_} for name, vars_ in hosts(inventory["all"], {})}
        for name, host_inputs in inputs.items():
            result = pyavd.validate_inputs(host_inputs)
            failures += [
                f"{fabric.name} {name}: {'.'.join(map(str, v.path))}: {v.message}"
                for v in result.validation_result.violations
            ]
        if failures:
            continue
        facts = pyavd.get_avd_facts(inputs)
        for name, host_inputs in inputs.items():
            structured = pyavd.get_device_structured_config(name, host_inputs, facts)
            config = pyavd.get_device_config(structured)
            if f"hostname {name}" not in config:
                failures.append(f"{fabric.name} {name}: no hostname in the configuration")
            profile = fabric_vars.get("p2p_uplinks_qos_profile")
            if profile and f"qos profile {profile}" not in config:
                failures.append(f"{fabric.name} {name}: no qos profile {profile}")
            blocks = interfaces(config)
            for port in lossless.get(fabric.name, {}).get(name, []):
                if f"service-profile {profile}" not in blocks.get(port, []):
                    failures.append(f"{fabric.name} {name} {port}: no service-profile {profile}")
            users = [l for l in config.splitlines() if l.startswith("username ")]
            if users:
                failures.append(f"{fabric.name} {name}: user accounts: {users}")
            print(f"{fabric.name}: {name}: {len(config.splitlines())} lines of EOS configuration")
    for f in failures:
        print(f, file=sys.stderr)
    return 1 if failures else 0

sys.exit(check(sys.argv[1], json.loads(pathlib.Path(sys.argv[2]).read_text())))
