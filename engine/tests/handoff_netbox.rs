//! The NetBox bulk imports of the hand-off bundle, checked field by field against NetBox's CSV
//! import forms (netbox/dcim/forms/bulk_import.py) and the rules NetBox applies on import: a
//! device stands inside its rack and no two devices share a rack unit.

mod support;

use engine::floor;
use engine::handoff::bundle;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use support::{all_digits, cable_count, csv_rows, design, yaml_documents, EXAMPLES};

#[test]
fn netbox_imports_have_the_import_columns_and_a_row_per_device_interface_and_cable() {
    for example in EXAMPLES {
        let (spec, report) = design(example);
        let files: HashMap<_, _> = bundle(&spec, &report).into_iter().collect();
        let cables: usize = report
            .fabrics
            .iter()
            .map(|f| cable_count(&report, &f.name))
            .sum();
        let types = yaml_documents(&files["netbox/device-types.yaml"]);
        let mut models = BTreeSet::new();
        for t in &types {
            let keys: BTreeSet<&str> = t.as_object().unwrap().keys().map(String::as_str).collect();
            assert_eq!(
                keys,
                BTreeSet::from(["manufacturer", "model", "slug", "u_height", "is_full_depth"])
            );
            let slug = t["slug"].as_str().unwrap();
            assert!(
                slug.bytes().all(|b| b.is_ascii_lowercase()
                    || b.is_ascii_digit()
                    || b == b'-'
                    || b == b'_'),
                "{slug}"
            );
            assert_eq!((t["u_height"].as_f64().unwrap() * 2.0).fract(), 0.0);
            models.insert((
                t["manufacturer"].as_str().unwrap().to_string(),
                t["model"].as_str().unwrap().to_string(),
            ));
        }
        let devices = csv_rows(&files["netbox/devices.csv"]);
        assert_eq!(
            devices[0],
            [
                "name",
                "role",
                "manufacturer",
                "device_type",
                "site",
                "status",
                "rack",
                "position",
                "face"
            ]
        );
        let names: BTreeSet<&str> = devices[1..].iter().map(|r| r[0].as_str()).collect();
        assert_eq!(names.len(), devices.len() - 1, "device names are unique");
        for r in &devices[1..] {
            assert!(
                models.contains(&(r[2].clone(), r[3].clone())),
                "device type of {r:?} is imported"
            );
            assert_eq!(r[5], "planned");
            assert_eq!(r[4], spec.title, "site");
        }
        let interfaces = csv_rows(&files["netbox/interfaces.csv"]);
        assert_eq!(interfaces[0], ["device", "name", "label", "type", "speed"]);
        assert_eq!(interfaces.len() - 1, 2 * cables);
        for r in &interfaces[1..] {
            assert!(names.contains(r[0].as_str()));
            assert!(
                ["infiniband-ndr", "100gbase-x-qsfp28", "400gbase-x-osfp"].contains(&r[3].as_str()),
                "{r:?}"
            );
            assert!(all_digits(&r[4]));
        }
        let rows = csv_rows(&files["netbox/cables.csv"]);
        assert_eq!(
            &rows[0][..9],
            [
                "side_a_device",
                "side_a_type",
                "side_a_name",
                "side_b_device",
                "side_b_type",
                "side_b_name",
                "type",
                "status",
                "label"
            ]
        );
        assert_eq!(&rows[0][9..], ["length", "length_unit", "description"]);
        assert_eq!(rows.len() - 1, cables);
        for (i, r) in rows[1..].iter().enumerate() {
            assert_eq!(
                (r[1].as_str(), r[4].as_str()),
                ("dcim.interface", "dcim.interface")
            );
            assert!(
                ["dac-passive", "dac-active", "mmf-om4", "smf-os2"].contains(&r[6].as_str()),
                "{r:?}"
            );
            assert_eq!(r[8], format!("C{:05}", i + 1));
            assert_eq!(r[10], "m");
        }
    }
}

#[test]
fn netbox_stands_every_device_in_its_rack_without_overlap_and_gives_each_cable_its_floor_length() {
    for example in EXAMPLES {
        let (spec, report) = design(example);
        let files: HashMap<_, _> = bundle(&spec, &report).into_iter().collect();
        let heights: HashMap<(String, String), f64> =
            yaml_documents(&files["netbox/device-types.yaml"])
                .iter()
                .map(|t| {
                    let key = (
                        t["manufacturer"].as_str().unwrap().to_string(),
                        t["model"].as_str().unwrap().to_string(),
                    );
                    (key, t["u_height"].as_f64().unwrap())
                })
                .collect();
        let racks = csv_rows(&files["netbox/racks.csv"]);
        assert_eq!(racks[0], ["site", "name", "status", "width", "u_height"]);
        assert!(racks.len() > 1, "the floor has racks");
        let rack_units: BTreeMap<&str, u32> = racks[1..]
            .iter()
            .map(|r| {
                assert_eq!(
                    (r[0].as_str(), r[2].as_str(), r[3].as_str()),
                    (spec.title.as_str(), "planned", "19")
                );
                (r[1].as_str(), r[4].parse().unwrap())
            })
            .collect();
        assert_eq!(rack_units.len(), racks.len() - 1, "rack names are unique");

        // Every switch and GPU node has a rack, a position and a face; NetBox refuses a device
        // that leaves its rack or takes a unit another device takes (both faces: the device
        // types are full depth).
        let mut taken: BTreeMap<(&str, u32), &str> = BTreeMap::new();
        let mut placed = 0;
        for d in &csv_rows(&files["netbox/devices.csv"])[1..] {
            if d[1] == "Fabric endpoint" {
                continue;
            }
            let (rack, position, face) = (d[6].as_str(), &d[7], d[8].as_str());
            assert!(
                rack_units.contains_key(rack),
                "{d:?} stands in an imported rack"
            );
            assert_eq!(face, "front");
            let bottom: u32 = position.parse().unwrap();
            let height = heights[&(d[2].clone(), d[3].clone())].ceil() as u32;
            assert!(
                bottom >= 1 && bottom + height - 1 <= rack_units[rack],
                "{d:?} inside its rack"
            );
            for u in bottom..bottom + height {
                if let Some(other) = taken.insert((rack, u), &d[0]) {
                    panic!("{} and {other} both take {rack} U{u}", d[0]);
                }
            }
            placed += 1;
        }
        assert!(placed > 0);

        // Each cable carries the routed, orderable length and the medium of the floor's sheet.
        let sheet = floor::cabling(&spec, &report).unwrap();
        let rows = csv_rows(&files["netbox/cables.csv"]);
        assert_eq!(rows.len() - 1, sheet.len());
        let mut lengths = BTreeSet::new();
        for (r, c) in rows[1..].iter().zip(&sheet) {
            assert_eq!(
                (&r[0], &r[2], &r[3], &r[5]),
                (&c.a_device, &c.a_port, &c.z_device, &c.z_port)
            );
            assert_eq!(r[9], format!("{}", c.length_m.unwrap().0));
            assert!(r[11].ends_with(c.medium.as_deref().unwrap()), "{r:?}");
            lengths.insert(r[9].clone());
        }
        assert!(
            lengths.len() > 3,
            "{example}: lengths follow the floor, not one per tier: {lengths:?}"
        );
    }
}
