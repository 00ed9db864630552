//! LLDP neighbour tables of one device, in the JSON its tools print:
//! - lldpd `lldpctl -f json0 show neighbors` (every level a list) and `-f json` (names as keys,
//!   one-key objects or lists of them) [lldpd tests/integration/test_lldpcli.py];
//! - Cumulus NVUE `nv show interface lldp -o json`: `<if>.lldp.neighbor.<key>.{chassis.system-name,
//!   port.name}` [docs.nvidia.com/networking-ethernet-software/nvue-reference];
//! - SONiC APPL_DB `LLDP_ENTRY_TABLE:<if>` hashes as `redis-dump` or `sonic-db-dump` print them
//!   (`lldp_rem_sys_name`, `lldp_rem_port_id`, `lldp_rem_port_desc`) [sonic-net/sonic-dbsyncd
//!   tests/mock_tables/LLDP_ENTRY_TABLE.json].
//!
//! LLDP names the neighbour, not the device asked, so the caller names the device. A host's
//! port id is often its MAC address: the port description (the interface name) is used then.

use super::{error, ObservedLink, ParseError, LIMITS, MAX_LINKS};
use crate::pasted::text;
use serde_json::{Map, Value};

/// The line of the first occurrence of `needle` in `text`, from 1; 0 when absent.
fn line_of(text: &str, needle: &str) -> usize {
    text.find(needle).map_or(0, |at| {
        text[..at].bytes().filter(|b| *b == b'\n').count() + 1
    })
}

fn str_at<'a>(v: &'a Value, path: &[&str]) -> Option<&'a str> {
    let mut v = v;
    for key in path {
        v = unwrap_list(v).get(key)?;
    }
    match unwrap_list(v) {
        Value::String(s) => Some(s),
        other => other.get("value").and_then(Value::as_str),
    }
}

/// json0 wraps every value in a one-element list.
fn unwrap_list(v: &Value) -> &Value {
    match v {
        Value::Array(items) if items.len() == 1 => &items[0],
        other => other,
    }
}

/// The neighbour's port: its interface name where the id is one, else its description.
fn lldpd_port(port: &Value) -> Option<String> {
    let id_type = str_at(port, &["id", "type"]).unwrap_or("");
    let id = str_at(port, &["id", "value"]).or_else(|| str_at(port, &["id"]));
    let descr = str_at(port, &["descr"]).filter(|d| !d.is_empty());
    match (id_type, id, descr) {
        ("ifname" | "local", Some(id), _) => Some(id.to_string()),
        (_, _, Some(d)) => Some(d.to_string()),
        (_, Some(id), None) => Some(id.to_string()),
        _ => None,
    }
}

fn lldpd_neighbour(
    device: &str,
    ifname: &str,
    entry: &Value,
    source: &str,
) -> Result<ObservedLink, ParseError> {
    let line = line_of(source, &format!("\"{ifname}\""));
    let chassis = entry.get("chassis").map(unwrap_list).ok_or_else(|| {
        error(
            line,
            format!("interface {ifname} has no chassis (truncated?)"),
        )
    })?;
    // json0: chassis.name[0].value; json: the chassis object is keyed by the system name.
    let name = str_at(chassis, &["name"]).map(str::to_string).or_else(|| {
        chassis.as_object().and_then(|m| {
            (m.len() == 1)
                .then(|| m.keys().next())
                .flatten()
                .filter(|k| *k != "id")
                .cloned()
        })
    });
    let name = name.ok_or_else(|| {
        error(
            line,
            format!("the neighbour on {ifname} gives no system name"),
        )
    })?;
    let port = entry
        .get("port")
        .and_then(|p| lldpd_port(unwrap_list(p)))
        .ok_or_else(|| error(line, format!("the neighbour on {ifname} gives no port")))?;
    Ok(link(device, ifname, &name, &port, line))
}

fn link(device: &str, port: &str, peer: &str, peer_port: &str, line: usize) -> ObservedLink {
    ObservedLink {
        device: device.to_string(),
        port: port.to_string(),
        peer_device: peer.to_string(),
        peer_port: peer_port.to_string(),
        width: None,
        speed_gbps: None,
        rate: None,
        line,
    }
}

fn lldpd(device: &str, lldp: &Value, source: &str) -> Result<Vec<ObservedLink>, ParseError> {
    let lldp = unwrap_list(lldp);
    let Some(interfaces) = lldp.get("interface") else {
        // lldpd prints `"lldp": {}` (json) or `[{}]` (json0) when it has no neighbours.
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    let mut push = |name: &str, entry: &Value| -> Result<(), ParseError> {
        if out.len() >= MAX_LINKS {
            return Err(error(0, format!("more than {MAX_LINKS} neighbours")));
        }
        out.push(lldpd_neighbour(device, name, entry, source)?);
        Ok(())
    };
    match interfaces {
        Value::Object(map) => {
            for (name, entry) in map {
                push(name, entry)?;
            }
        }
        Value::Array(items) => {
            for item in items {
                if let Some(name) = item.get("name").and_then(Value::as_str) {
                    push(name, item)?;
                } else if let Some(map) = item.as_object().filter(|m| m.len() == 1) {
                    for (name, entry) in map {
                        push(name, entry)?;
                    }
                } else {
                    return Err(error(
                        line_of(source, "\"interface\""),
                        "an lldpd interface entry has no name",
                    ));
                }
            }
        }
        _ => {
            return Err(error(
                line_of(source, "\"interface\""),
                "lldpd's \"interface\" is an object or a list",
            ))
        }
    }
    Ok(out)
}

fn nvue(
    device: &str,
    map: &Map<String, Value>,
    source: &str,
) -> Result<Vec<ObservedLink>, ParseError> {
    let mut out = Vec::new();
    for (ifname, entry) in map {
        let line = line_of(source, &format!("\"{ifname}\""));
        let neighbours = entry
            .get("lldp")
            .and_then(|l| l.get("neighbor"))
            .and_then(Value::as_object)
            .ok_or_else(|| {
                error(
                    line,
                    format!("interface {ifname} has no lldp.neighbor object"),
                )
            })?;
        for n in neighbours.values() {
            let name = n
                .pointer("/chassis/system-name")
                .and_then(Value::as_str)
                .ok_or_else(|| {
                    error(
                        line,
                        format!("the neighbour on {ifname} has no chassis.system-name"),
                    )
                })?;
            let port = n
                .pointer("/port/name")
                .and_then(Value::as_str)
                .filter(|p| !p.is_empty())
                .or_else(|| n.pointer("/port/description").and_then(Value::as_str))
                .ok_or_else(|| {
                    error(line, format!("the neighbour on {ifname} has no port.name"))
                })?;
            if out.len() >= MAX_LINKS {
                return Err(error(line, format!("more than {MAX_LINKS} neighbours")));
            }
            out.push(link(device, ifname, name, port, line));
        }
    }
    Ok(out)
}

fn sonic(
    device: &str,
    map: &Map<String, Value>,
    source: &str,
) -> Result<Vec<ObservedLink>, ParseError> {
    let mut out = Vec::new();
    for (key, entry) in map {
        let Some(ifname) = key.strip_prefix("LLDP_ENTRY_TABLE:") else {
            continue; // LLDP_LOC_CHASSIS and other tables of the dump
        };
        let line = line_of(source, &format!("\"{key}\""));
        // `redis-dump` nests the hash under "value"; mock tables give it directly.
        let fields = entry.get("value").unwrap_or(entry);
        let field = |name: &str| {
            fields
                .get(name)
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
        };
        let name = field("lldp_rem_sys_name")
            .ok_or_else(|| error(line, format!("{key} has no lldp_rem_sys_name")))?;
        // Subtype 5 (interface name) and 7 (locally assigned) name the port; otherwise the
        // description does.
        let port = match field("lldp_rem_port_id_subtype") {
            Some("5") | Some("7") | None => field("lldp_rem_port_id"),
            Some(_) => field("lldp_rem_port_desc").or_else(|| field("lldp_rem_port_id")),
        }
        .ok_or_else(|| error(line, format!("{key} has no lldp_rem_port_id")))?;
        if out.len() >= MAX_LINKS {
            return Err(error(line, format!("more than {MAX_LINKS} neighbours")));
        }
        out.push(link(device, ifname, name, port, line));
    }
    if out.is_empty() {
        return Err(error(
            0,
            "no LLDP_ENTRY_TABLE entries in the SONiC database dump",
        ));
    }
    Ok(out)
}

/// The links `device` sees, from its LLDP neighbour table in any of the formats above.
pub fn parse(input: &[u8], device: &str) -> Result<Vec<ObservedLink>, ParseError> {
    let source = text(input, "LLDP neighbour JSON", LIMITS)?;
    if source.trim().is_empty() {
        return Err(error(0, "the input is empty"));
    }
    let value: Value = serde_json::from_str(source).map_err(|e| {
        let what = if e.is_eof() {
            "the JSON ends early (truncated?)".to_string()
        } else {
            format!("not JSON: {e}")
        };
        error(e.line(), what)
    })?;
    let Value::Object(map) = &value else {
        return Err(error(1, "LLDP neighbour tables are a JSON object"));
    };
    if let Some(lldp) = map.get("lldp") {
        return lldpd(device, lldp, source);
    }
    if map
        .keys()
        .any(|k| k.starts_with("LLDP_ENTRY_TABLE:") || k.starts_with("LLDP_"))
    {
        return sonic(device, map, source);
    }
    if !map.is_empty() && map.values().all(|v| v.get("lldp").is_some()) {
        return nvue(device, map, source);
    }
    Err(error(
        1,
        "not an LLDP neighbour table: expected lldpctl -f json/json0 (\"lldp\"), NVUE (\"<interface>\": {\"lldp\": …}) or SONiC (\"LLDP_ENTRY_TABLE:<interface>\")",
    ))
}
