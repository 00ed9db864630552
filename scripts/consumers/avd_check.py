"""Feeds every Arista AVD fabric of a hand-off bundle's `avd/` folder to Arista's own pyavd:
the inputs must validate, and every switch must get an EOS configuration that carries the
design's lossless QoS profile where the fabric has one, on every port LOSSLESS_PORTS lists for
it (`{fabric file: {switch: [EOS interface]}}`: the RoCE-carrying ports, host-facing included),
and no user account (the inputs define none: one in a configuration came from text of the
design). Where LOSSLESS_PORTS has "vrfs" (`{fabric file: {switch: {vrf: vni}}}`, the tenants'
VRFs each leaf must carry), each of those switches must have the VRF, its VNI on the VXLAN
interface and an address in it, and no other switch the VRF.

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

def vxlan_vrfs(config):
    """VRF -> VNI of the `interface Vxlan1` block."""
    out = {}
    for line in interfaces(config).get("Vxlan1", []):
        words = line.split()
        if words[:2] == ["vxlan", "vrf"] and len(words) == 5 and words[3] == "vni":
            out[words[2]] = int(words[4])
    return out

def check(folder, lossless):
    vrfs = lossless.pop("vrfs", {})
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
            expected = vrfs.get(fabric.name, {})
            if expected:
                mine = expected.get(name, {})
                carried = vxlan_vrfs(config)
                for vrf, vni in mine.items():
                    if f"vrf instance {vrf}" not in config:
                        failures.append(f"{fabric.name} {name}: no vrf instance {vrf}")
                    if carried.get(vrf) != vni:
                        failures.append(f"{fabric.name} {name}: VRF {vrf} on VNI {carried.get(vrf)}, not {vni}")
                    if not any(f"vrf {vrf}" in b and any(l.startswith("ip address ") for l in b)
                               for b in interfaces(config).values()):
                        failures.append(f"{fabric.name} {name}: no port with an address in VRF {vrf}")
                all_vrfs = {v for per in expected.values() for v in per}
                for vrf in all_vrfs - set(mine):
                    if f"vrf instance {vrf}" in config:
                        failures.append(f"{fabric.name} {name}: carries VRF {vrf} of a tenant it serves no node of")
            users = [l for l in config.splitlines() if l.startswith("username ")]
            if users:
                failures.append(f"{fabric.name} {name}: user accounts: {users}")
            print(f"{fabric.name}: {name}: {len(config.splitlines())} lines of EOS configuration")
    for f in failures:
        print(f, file=sys.stderr)
    return 1 if failures else 0

sys.exit(check(sys.argv[1], json.loads(pathlib.Path(sys.argv[2]).read_text())))
