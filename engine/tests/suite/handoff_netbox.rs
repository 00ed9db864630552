//! The NetBox imports of the hand-off bundle, imported file by file, in the README's order, into a
//! model of NetBox 4.6.8 that applies every rule of its bulk-import forms and its models'
//! validation that these rows meet, each cited to its place in NetBox's source
//! (netbox-community/netbox at v4.6.8). A row NetBox would refuse fails the test.

use crate::support;

use engine::floor;
use engine::handoff::bundle;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use support::{csv_rows, design, yaml_documents};

/// What NetBox holds after each import, as far as the later imports refer to it.
#[derive(Default)]
struct NetBox {
    sites: BTreeSet<String>,
    manufacturers: BTreeSet<String>,
    roles: BTreeSet<String>,
    /// (manufacturer, model) → u_height. Every type is full depth (checked on import), so a
    /// device takes its units on both faces.
    types: BTreeMap<(String, String), f64>,
    /// (site, rack) → height in U.
    racks: BTreeMap<(String, String), u32>,
    devices: BTreeSet<String>,
    /// (rack, half-unit) → device: the space devices take.
    taken: BTreeMap<(String, u32), String>,
    interfaces: BTreeSet<(String, String)>,
    cabled: BTreeSet<(String, String)>,
}

type Row = BTreeMap<String, String>;

/// The import of one row of a CSV file.
type Import = fn(&mut NetBox, &Row) -> Result<(), String>;

/// The rows of a CSV import as column → value, refusing a row whose length differs from the
/// header (NetBox's CSV reader: utilities/forms/bulk_import.py, `BulkImportForm._clean_csv`).
fn rows(text: &str) -> Vec<Row> {
    let table = csv_rows(text);
    let header = &table[0];
    table[1..]
        .iter()
        .map(|r| {
            assert_eq!(
                r.len(),
                header.len(),
                "row length differs from the header: {r:?}"
            );
            header.iter().cloned().zip(r.iter().cloned()).collect()
        })
        .collect()
}

/// The value of a required column.
fn required<'a>(row: &'a Row, column: &str) -> Result<&'a str, String> {
    match row.get(column).map(String::as_str) {
        Some(v) if !v.is_empty() => Ok(v),
        _ => Err(format!("{column}: this field is required")),
    }
}

/// Django's `validate_slug`, which every SlugField of NetBox takes: `^[-a-zA-Z0-9_]+\Z`.
fn slug(value: &str) -> Result<(), String> {
    let ok = !value.is_empty()
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    ok.then_some(())
        .ok_or_else(|| format!("slug {value:?}: letters, numbers, underscores or hyphens"))
}

/// A value among a ChoiceSet's (dcim/choices.py).
fn choice(value: &str, choices: &[&str], what: &str) -> Result<(), String> {
    choices
        .contains(&value)
        .then_some(())
        .ok_or_else(|| format!("{what} {value:?} is not one of the available choices"))
}

impl NetBox {
    /// dcim/forms/bulk_import.py `SiteImportForm`: name, slug, status (`SiteStatusChoices`,
    /// dcim/choices.py); a site's name is at most 100 characters (dcim/models/sites.py).
    fn site(&mut self, row: &Row) -> Result<(), String> {
        let name = required(row, "name")?;
        if name.chars().count() > 100 {
            return Err("name: at most 100 characters".into());
        }
        slug(required(row, "slug")?)?;
        choice(
            required(row, "status")?,
            &["planned", "staging", "active", "decommissioning", "retired"],
            "status",
        )?;
        self.sites.insert(name.to_string());
        Ok(())
    }

    /// `ManufacturerImportForm`: name and slug, each unique (OrganizationalModel).
    fn manufacturer(&mut self, row: &Row) -> Result<(), String> {
        let name = required(row, "name")?;
        slug(required(row, "slug")?)?;
        self.manufacturers
            .insert(name.to_string())
            .then_some(())
            .ok_or_else(|| format!("manufacturer {name:?} exists already"))
    }

    /// `DeviceRoleImportForm`: name, slug and a colour of six lower-case hex digits
    /// (utilities/validators.py `ColorValidator`, `^[0-9a-f]{6}$`).
    fn role(&mut self, row: &Row) -> Result<(), String> {
        let name = required(row, "name")?;
        slug(required(row, "slug")?)?;
        let color = required(row, "color")?;
        if color.len() != 6
            || !color
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        {
            return Err(format!("color {color:?}: six hexadecimal digits"));
        }
        self.roles
            .insert(name.to_string())
            .then_some(())
            .ok_or_else(|| format!("role {name:?} exists already"))
    }

    /// The device type import (a devicetype-library document): its manufacturer must exist
    /// (`DeviceTypeImportForm.manufacturer`, by name), the slug be a slug, and the height a
    /// multiple of 0.5 U (dcim/models/devices.py `DeviceType.clean`).
    fn device_type(&mut self, t: &serde_json::Value) -> Result<(), String> {
        let text = |k: &str| {
            t[k].as_str()
                .map(str::to_string)
                .ok_or(format!("{k}: required"))
        };
        let manufacturer = text("manufacturer")?;
        if !self.manufacturers.contains(&manufacturer) {
            return Err(format!("manufacturer {manufacturer:?}: object not found"));
        }
        slug(&text("slug")?)?;
        let height = t["u_height"].as_f64().ok_or("u_height: required")?;
        if (height * 2.0).fract() != 0.0 || height < 0.0 {
            return Err("u_height: in increments of 0.5 rack units".into());
        }
        if t["is_full_depth"].as_bool() != Some(true) {
            return Err("is_full_depth: true for every type of the bundle".into());
        }
        self.types.insert((manufacturer, text("model")?), height);
        Ok(())
    }

    /// `RackImportForm`: the site must exist, status `RackStatusChoices`, width
    /// `RackWidthChoices` (10, 19, 21, 23), height 1 to `RACK_U_HEIGHT_MAX` = 100
    /// (dcim/constants.py; dcim/models/racks.py `u_height` validators).
    fn rack(&mut self, row: &Row) -> Result<(), String> {
        let site = required(row, "site")?;
        if !self.sites.contains(site) {
            return Err(format!("site {site:?}: object not found"));
        }
        let name = required(row, "name")?;
        choice(
            required(row, "status")?,
            &["reserved", "available", "planned", "active", "deprecated"],
            "status",
        )?;
        choice(required(row, "width")?, &["10", "19", "21", "23"], "width")?;
        let height: u32 = required(row, "u_height")?
            .parse()
            .map_err(|_| "u_height: a whole number".to_string())?;
        if !(1..=100).contains(&height) {
            return Err(format!("u_height {height}: between 1 and 100"));
        }
        let new = self
            .racks
            .insert((site.to_string(), name.to_string()), height)
            .is_none();
        new.then_some(())
            .ok_or_else(|| format!("rack {name:?} exists already in {site:?}"))
    }

    /// `DeviceImportForm` and `Device.clean` (dcim/models/devices.py): role, manufacturer,
    /// device type (by model, within the manufacturer) and site must exist, status
    /// `DeviceStatusChoices`; a rack of the site; a position only with a rack, in steps of
    /// 0.5 U, with a face, never for a 0 U type ("A 0U device type … cannot be assigned to a
    /// rack position"), and only where the rack has room ("U… is already occupied or does not
    /// have sufficient space"; a full-depth type takes both faces).
    fn device(&mut self, row: &Row) -> Result<(), String> {
        let name = required(row, "name")?;
        let role = required(row, "role")?;
        if !self.roles.contains(role) {
            return Err(format!("role {role:?}: object not found"));
        }
        let manufacturer = required(row, "manufacturer")?;
        let model = required(row, "device_type")?;
        let Some(&height) = self
            .types
            .get(&(manufacturer.to_string(), model.to_string()))
        else {
            return Err(format!(
                "device_type {model:?} of {manufacturer:?}: object not found"
            ));
        };
        let site = required(row, "site")?;
        if !self.sites.contains(site) {
            return Err(format!("site {site:?}: object not found"));
        }
        choice(
            required(row, "status")?,
            &[
                "offline",
                "active",
                "planned",
                "staged",
                "failed",
                "inventory",
                "decommissioning",
            ],
            "status",
        )?;
        let (rack, position, face) = (&row["rack"], &row["position"], &row["face"]);
        if rack.is_empty() {
            if !position.is_empty() {
                return Err(
                    "position: cannot select a rack position without assigning a rack".into(),
                );
            }
        } else {
            let Some(&rack_height) = self.racks.get(&(site.to_string(), rack.clone())) else {
                return Err(format!("rack {rack:?}: object not found in {site:?}"));
            };
            if !position.is_empty() {
                let at: f64 = position
                    .parse()
                    .map_err(|_| "position: a number".to_string())?;
                if (at * 2.0).fract() != 0.0 {
                    return Err("position: in increments of 0.5 rack units".into());
                }
                if face.is_empty() {
                    return Err("face: must specify rack face when defining rack position".into());
                }
                choice(face, &["front", "rear"], "face")?;
                if height == 0.0 {
                    return Err(format!(
                        "position: a 0U device type ({model}) cannot be assigned to a rack position"
                    ));
                }
                if at < 1.0 || at + height - 1.0 > f64::from(rack_height) {
                    return Err(format!(
                        "position: U{position} does not have sufficient space ({height}U)"
                    ));
                }
                let first = (at * 2.0) as u32;
                for half in first..first + (height * 2.0) as u32 {
                    if let Some(other) = self.taken.insert((rack.clone(), half), name.to_string()) {
                        return Err(format!(
                            "position: U{position} is already occupied (by {other})"
                        ));
                    }
                }
            }
        }
        self.devices
            .insert(name.to_string())
            .then_some(())
            .ok_or_else(|| format!("device {name:?} exists already in {site:?}"))
    }

    /// `InterfaceImportForm`: the device must exist, the type be one of `InterfaceTypeChoices`,
    /// the speed a whole number (kb/s); names unique per device (dcim/models/device_components.py,
    /// constraint `unique_device_name`).
    fn interface(&mut self, row: &Row) -> Result<(), String> {
        let device = required(row, "device")?;
        if !self.devices.contains(device) {
            return Err(format!("device {device:?}: object not found"));
        }
        let name = required(row, "name")?;
        choice(
            required(row, "type")?,
            &[
                "infiniband-hdr",
                "infiniband-ndr",
                "infiniband-xdr",
                "10gbase-x-sfpp",
                "25gbase-x-sfp28",
                "50gbase-x-sfp56",
                "100gbase-x-qsfp28",
                "200gbase-x-qsfp56",
                "400gbase-x-osfp",
                "800gbase-x-osfp",
            ],
            "type",
        )?;
        if !row["speed"].is_empty() && row["speed"].parse::<u64>().is_err() {
            return Err("speed: a whole number".into());
        }
        self.interfaces
            .insert((device.to_string(), name.to_string()))
            .then_some(())
            .ok_or_else(|| format!("interface {name:?} exists already on {device:?}"))
    }

    /// `CableImportForm`: each side a `dcim.interface` of an existing device, by name, not
    /// cabled already (dcim/models/cables.py `CableTermination.clean`); type `CableTypeChoices`,
    /// status `LinkStatusChoices`, a unit with a length ("Must specify a unit when setting a
    /// cable length", `Cable.clean`) among `CableLengthUnitChoices`.
    fn cable(&mut self, row: &Row) -> Result<(), String> {
        for side in ["a", "b"] {
            let device = required(row, &format!("side_{side}_device"))?;
            if required(row, &format!("side_{side}_type"))? != "dcim.interface" {
                return Err(format!("side_{side}_type: dcim.interface"));
            }
            let name = required(row, &format!("side_{side}_name"))?;
            let end = (device.to_string(), name.to_string());
            if !self.interfaces.contains(&end) {
                return Err(format!(
                    "side {side}: interface {name:?} of {device:?} not found"
                ));
            }
            if !self.cabled.insert(end) {
                return Err(format!("side {side}: {device} {name} already has a cable"));
            }
        }
        choice(
            &row["type"],
            &["", "dac-active", "dac-passive", "mmf-om4", "smf-os2", "aoc"],
            "type",
        )?;
        choice(
            &row["status"],
            &["connected", "planned", "decommissioning"],
            "status",
        )?;
        if !row["length"].is_empty() {
            row["length"]
                .parse::<f64>()
                .map_err(|_| "length: a number".to_string())?;
            choice(
                &row["length_unit"],
                &["km", "m", "cm", "mi", "ft", "in"],
                "length_unit",
            )?;
        }
        Ok(())
    }

    /// Every NetBox file of a bundle, in the README's order: `Err` names the file, the row and
    /// what NetBox says.
    fn import(files: &HashMap<String, String>) -> Result<NetBox, String> {
        let mut netbox = NetBox::default();
        let csv: [(&str, Import); 3] = [
            ("netbox/sites.csv", NetBox::site),
            ("netbox/manufacturers.csv", NetBox::manufacturer),
            ("netbox/device-roles.csv", NetBox::role),
        ];
        for (file, import) in csv {
            for (i, row) in rows(&files[file]).iter().enumerate() {
                import(&mut netbox, row).map_err(|e| format!("{file} row {}: {e}", i + 1))?;
            }
        }
        for (i, t) in yaml_documents(&files["netbox/device-types.yaml"])
            .iter()
            .enumerate()
        {
            netbox
                .device_type(t)
                .map_err(|e| format!("netbox/device-types.yaml document {}: {e}", i + 1))?;
        }
        let csv: [(&str, Import); 4] = [
            ("netbox/racks.csv", NetBox::rack),
            ("netbox/devices.csv", NetBox::device),
            ("netbox/interfaces.csv", NetBox::interface),
            ("netbox/cables.csv", NetBox::cable),
        ];
        for (file, import) in csv {
            for (i, row) in rows(&files[file]).iter().enumerate() {
                import(&mut netbox, row).map_err(|e| format!("{file} row {}: {e}", i + 1))?;
            }
        }
        Ok(netbox)
    }
}

fn files_of(example: &str) -> HashMap<String, String> {
    let (spec, report) = design(example);
    bundle(&spec, &report).into_iter().collect()
}

#[test]
fn netbox_imports_every_row_of_every_example_as_its_forms_and_models_would() {
    for (name, example) in engine::examples::ALL {
        let files = files_of(example);
        let netbox = NetBox::import(&files).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (spec, report) = design(example);
        let cables: usize = report
            .fabrics
            .iter()
            .map(|f| support::cable_count(&report, &f.name))
            .sum();
        assert_eq!(
            netbox.cabled.len(),
            2 * cables,
            "{name}: every cable imported"
        );
        assert!(
            netbox.sites.contains(&spec.title),
            "{name}: the site is the design"
        );
        // Every GPU node stands in a rack, as tall as the floor stands it.
        let nodes = rows(&files["netbox/devices.csv"])
            .into_iter()
            .filter(|d| d["role"] == "GPU node")
            .collect::<Vec<_>>();
        assert!(!nodes.is_empty(), "{name}");
        assert!(
            nodes.iter().all(|d| !d["position"].is_empty()),
            "{name}: every node has a rack position"
        );
        let height = floor::node_rack_units(&spec) as f64;
        let node_type = (
            nodes[0]["manufacturer"].clone(),
            nodes[0]["device_type"].clone(),
        );
        assert_eq!(netbox.types[&node_type], height, "{name}");
    }
}

#[test]
fn netbox_refuses_a_0u_node_in_a_rack_position_and_a_device_type_before_its_manufacturer() {
    let mut files = files_of(engine::examples::SUPERPOD_4SU);
    let types = files["netbox/device-types.yaml"].clone();
    // As the bundle wrote it before: GPU nodes 0 U, yet each at a rack position.
    files.insert(
        "netbox/device-types.yaml".into(),
        types.replace("u_height: 8", "u_height: 0"),
    );
    let e = NetBox::import(&files).err().unwrap();
    assert!(
        e.starts_with("netbox/devices.csv") && e.contains("0U device type"),
        "{e}"
    );
    files.insert("netbox/device-types.yaml".into(), types);
    files.insert("netbox/manufacturers.csv".into(), "name,slug\n".into());
    let e = NetBox::import(&files).err().unwrap();
    assert!(
        e.contains("manufacturer") && e.contains("object not found"),
        "{e}"
    );
}

#[test]
fn netbox_gives_each_cable_its_length_and_medium_on_the_floor() {
    for example in support::EXAMPLES {
        let (spec, report) = design(example);
        let files: HashMap<_, _> = bundle(&spec, &report).into_iter().collect();
        let sheet = floor::cabling(&spec, &report).unwrap();
        let rows = csv_rows(&files["netbox/cables.csv"]);
        assert_eq!(rows.len() - 1, sheet.len());
        let mut lengths = BTreeSet::new();
        for (r, c) in rows[1..].iter().zip(&sheet) {
            assert_eq!(
                (&r[0], &r[2], &r[3], &r[5]),
                (&c.a_device, &c.a_port, &c.z_device, &c.z_port)
            );
            assert_eq!(r[9], format!("{}", c.length_m.unwrap().metres()));
            assert!(r[11].ends_with(c.medium.as_deref().unwrap()), "{r:?}");
            lengths.insert(r[9].clone());
        }
        assert!(
            lengths.len() > 3,
            "lengths follow the floor, not one per tier: {lengths:?}"
        );
    }
}
