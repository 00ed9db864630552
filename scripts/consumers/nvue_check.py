"""Reads every NVIDIA Cumulus Linux configuration of a hand-off bundle's `nvue/` folder with a
YAML 1.1 reader (PyYAML) and holds each file

- to NVUE's object model as its command reference documents it: every key is a path `nv set`
  accepts (docs.nvidia.com/networking-ethernet-software/nvue-reference: Interface, QoS, BGP,
  System Configuration), every value of the type and in the range the reference gives;
- to what the file is for: it configures the switch its name says, every cabled port of that
  switch (PORTS lists them), a split cage's ports only on a broken-out parent, RoCE lossless with
  a cable length and the PFC watchdog on every RoCE-carrying port, BGP unnumbered on every
  fabric link, and a loopback no other switch of the fabric has.

Usage: nvue_check.py NVUE_FOLDER PORTS.json, where PORTS.json is
{fabric: {"roce": bool, "switches": {switch: {"ports": [...], "fabric_links": [...],
"vrfs": {vrf: vni}, "routed": {port: vrf}}}}} ("vrfs" and "routed" where the fabric has tenants)
(run by engine/tests/suite/handoff_consumers with the Python of the pyavd environment that
scripts/setup.sh installs into .tools/pyavd)."""
import ipaddress
import json
import pathlib
import re
import sys

import yaml


def enum(*values):
    return lambda v: v in values


def integer(low, high):
    return lambda v: isinstance(v, int) and not isinstance(v, bool) and low <= v <= high


def on_off(v):
    # NVUE writes `on`/`off`, which YAML 1.1 reads as booleans.
    return isinstance(v, bool)


def text(v):
    return isinstance(v, str) and "\n" not in v and len(v) <= 256


def ipv4(v):
    try:
        ipaddress.IPv4Address(v)
        return True
    except ValueError:
        return False


def ipv4_host_prefix(v):
    try:
        return ipaddress.IPv4Interface(v).network.prefixlen == 32
    except ValueError:
        return False


def empty(v):
    return v == {}


def ipv4_port_prefix(v):
    """A loopback's /32 or a routed port's /31."""
    try:
        return ipaddress.IPv4Interface(v).network.prefixlen in (31, 32)
    except ValueError:
        return False


VRF = re.compile(r"^[a-z][a-z0-9-]{0,14}$")  # a Linux device name: 15 characters at most
BGP_VRF = {
    "enable": on_off,
    "address-family": {
        "ipv4-unicast": {
            "enable": on_off,
            "redistribute": {"connected": {"enable": on_off}},
            "route-export": {"to-evpn": {"enable": on_off}},
        },
        "l2vpn-evpn": {"enable": on_off},
    },
    "neighbor": {"*": (lambda k: SWP.match(k), {
        "remote-as": lambda v: v in ("external", "internal") or integer(1, 4294967295)(v),
        "type": enum("unnumbered", "numbered"),
        "address-family": {"l2vpn-evpn": {"enable": on_off}},
    })},
}


SWP = re.compile(r"^swp([1-9][0-9]*)(s([0-7]))?$")
# Each dict maps a key (or "*" with the pattern its keys follow) to a sub-schema or a check.
SCHEMA = {
    "system": {"hostname": lambda v: isinstance(v, str) and re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9-]{0,62}", v)},
    "interface": {
        "*": (lambda k: k == "lo" or SWP.match(k), {
            "type": enum("swp", "loopback"),
            "description": text,
            "link": {
                "mtu": integer(552, 9216),
                "breakout": {"*": (lambda k: re.fullmatch(r"[1-8]x", k), empty)},
            },
            "ip": {"address": {"*": (ipv4_port_prefix, empty)}, "vrf": lambda v: isinstance(v, str) and VRF.match(v)},
            "qos": {"pfc-watchdog": {"state": enum("enable", "disable")}},
        }),
    },
    "qos": {
        "roce": {"mode": enum("lossless", "lossy"), "cable-length": integer(1, 100000)},
        "pfc-watchdog": {"polling-interval": integer(1, 10000), "robustness": integer(1, 1000)},
    },
    "router": {"bgp": {"enable": on_off, "autonomous-system": integer(1, 4294967295), "router-id": ipv4}},
    "evpn": {"enable": on_off},
    "nve": {"vxlan": {"enable": on_off, "source": {"address": ipv4}}},
    "vrf": {
        "*": (lambda k: k == "default" or VRF.match(k), {
            "evpn": {"enable": on_off, "vni": {"*": (lambda k: k.isdigit() and 1 <= int(k) <= 16777214, empty)}},
            "router": {"bgp": BGP_VRF},
        }),
    },
}


def against(schema, value, path, failures):
    """Failures of `value` against `schema` at `path`."""
    if callable(schema):
        if not schema(value):
            failures.append(f"{path}: {value!r} is not a value NVUE takes here")
        return
    if not isinstance(value, dict):
        failures.append(f"{path}: expected an object, found {value!r}")
        return
    for key, sub in value.items():
        if key in schema:
            against(schema[key], sub, f"{path} {key}", failures)
        elif "*" in schema and schema["*"][0](str(key)):
            against(schema["*"][1], sub, f"{path} {key}", failures)
        else:
            failures.append(f"{path} {key}: not an NVUE path")


def tenant_failures(where, config, ports, neighbours, loopback):
    """What a switch of a fabric carrying tenants' VRFs lacks or has too much of."""
    failures = []
    if config.get("evpn", {}).get("enable") is not True:
        failures.append(f"{where}: EVPN is not enabled")
    default = config["vrf"]["default"]["router"]["bgp"]
    if default.get("address-family", {}).get("l2vpn-evpn", {}).get("enable") is not True:
        failures.append(f"{where}: no l2vpn-evpn address family")
    for port, neighbour in neighbours.items():
        if neighbour.get("address-family", {}).get("l2vpn-evpn", {}).get("enable") is not True:
            failures.append(f"{where} {port}: fabric link without l2vpn-evpn")
    vrfs = ports.get("vrfs", {})
    carried = {k: v for k, v in config.get("vrf", {}).items() if k != "default"}
    if sorted(carried) != sorted(vrfs):
        failures.append(f"{where}: VRFs {sorted(carried)}, not the tenants it serves {sorted(vrfs)}")
    if vrfs and config.get("nve", {}).get("vxlan", {}).get("source", {}).get("address") != loopback:
        failures.append(f"{where}: no VXLAN tunnel end on its loopback")
    for vrf, vni in vrfs.items():
        v = carried.get(vrf, {})
        if list(v.get("evpn", {}).get("vni", {})) != [vni]:
            failures.append(f"{where}: VRF {vrf} not on VNI {vni}")
        unicast = v.get("router", {}).get("bgp", {}).get("address-family", {}).get("ipv4-unicast", {})
        if unicast.get("route-export", {}).get("to-evpn", {}).get("enable") is not True:
            failures.append(f"{where}: VRF {vrf} exports no route to EVPN")
    interfaces = config.get("interface", {})
    for port, vrf in ports.get("routed", {}).items():
        ip = interfaces.get(port, {}).get("ip", {})
        addresses = list(ip.get("address", {}))
        if ip.get("vrf") != vrf or len(addresses) != 1 or not addresses[0].endswith("/31"):
            failures.append(f"{where} {port}: not a /31 in VRF {vrf}")
    return failures


def check(folder, expected):
    failures = []
    for fabric, plan in expected.items():
        loopbacks = {}
        for switch, ports in plan["switches"].items():
            path = pathlib.Path(folder) / f"{switch}.yaml"
            where = f"{switch}.yaml"
            if not path.exists():
                failures.append(f"{where}: missing")
                continue
            documents = list(yaml.safe_load_all(path.read_text()))
            if len(documents) != 1 or not isinstance(documents[0], list) or len(documents[0]) != 1:
                failures.append(f"{where}: not one list of one operation")
                continue
            config = documents[0][0].get("set")
            if config is None or list(documents[0][0]) != ["set"]:
                failures.append(f"{where}: not a `set` operation")
                continue
            against(SCHEMA, config, "nv set", failures)
            if config.get("system", {}).get("hostname") != switch:
                failures.append(f"{where}: hostname is not {switch}")
            interfaces = config.get("interface", {})
            loopback = next(iter(interfaces.get("lo", {}).get("ip", {}).get("address", {})), None)
            if loopback in loopbacks:
                failures.append(f"{where}: loopback {loopback} is also {loopbacks[loopback]}'s")
            loopbacks[loopback] = switch
            if config.get("router", {}).get("bgp", {}).get("router-id") != (loopback or "").split("/")[0]:
                failures.append(f"{where}: router-id is not the loopback")
            broken_out = {k for k, v in interfaces.items() if v.get("link", {}).get("breakout")}
            roce = config.get("qos", {}).get("roce", {})
            if plan["roce"] and (roce.get("mode") != "lossless" or "cable-length" not in roce):
                failures.append(f"{where}: RoCE is not lossless with a cable length")
            if not plan["roce"] and roce:
                failures.append(f"{where}: lossless settings on a fabric without RoCE")
            for port in ports["ports"]:
                interface = interfaces.get(port)
                if interface is None:
                    failures.append(f"{where} {port}: cabled but not configured")
                    continue
                split = SWP.match(port)
                if split.group(2) and f"swp{split.group(1)}" not in broken_out:
                    failures.append(f"{where} {port}: its cage swp{split.group(1)} is not broken out")
                if interface.get("link", {}).get("mtu") != 9216:
                    failures.append(f"{where} {port}: MTU is not 9216")
                watchdog = interface.get("qos", {}).get("pfc-watchdog", {}).get("state")
                if plan["roce"] and watchdog != "enable":
                    failures.append(f"{where} {port}: RoCE port without the PFC watchdog")
            neighbours = config.get("vrf", {}).get("default", {}).get("router", {}).get("bgp", {}).get("neighbor", {})
            if sorted(neighbours) != sorted(ports["fabric_links"]):
                failures.append(f"{where}: BGP neighbours {sorted(neighbours)} are not its fabric links {sorted(ports['fabric_links'])}")
            overlay = any(p.get("vrfs") for p in plan["switches"].values())
            if overlay:
                failures += tenant_failures(where, config, ports, neighbours, (loopback or "").split("/")[0])
        print(f"{fabric}: {len(plan['switches'])} NVUE configurations read")
    for f in failures:
        print(f, file=sys.stderr)
    return 1 if failures else 0


sys.exit(check(sys.argv[1], json.loads(pathlib.Path(sys.argv[2]).read_text())))
