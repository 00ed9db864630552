use super::holds;
use engine::floor::{Device, Rack};
use engine::{Kilowatts, Watts};

fn device(role: &str) -> Device {
    Device {
        label: format!("{role}-1"),
        role: role.into(),
        u: 1,
        height_u: 1,
        power_w: Watts::new(0.0),
    }
}

#[test]
fn a_rack_says_what_it_holds_in_words_singular_for_one() {
    let rack = Rack {
        name: "R01-01".into(),
        row: 0,
        position: 0,
        network: true,
        devices: vec![device("leaf"), device("leaf"), device("spine")],
        units_used: 3,
        load_kw: Kilowatts::new(0.0),
        feed_kw: Kilowatts::new(0.0),
        over_budget: false,
        past_air_limit: false,
    };
    assert_eq!(holds(&rack), "2 leaves, 1 spine");
}

/// The SuperPOD's floor of several rows says what losing one row takes, beside its racks.
#[test]
fn a_floor_of_several_rows_says_what_losing_one_takes() {
    let spec = engine::DesignSpec::from_json(engine::examples::SUPERPOD_4SU).unwrap();
    let report = engine::evaluate(&spec).unwrap();
    let blocks = super::floor_blocks(&spec, &report, &engine::floor::plan(&spec, &report));
    let table = |id: &str| {
        blocks.iter().find_map(|b| match b {
            super::Block::Table(t) if t.id.as_deref() == Some(id) => Some(t),
            _ => None,
        })
    };
    let rows = table("row-losses").expect("a table of row losses");
    assert_eq!(rows.columns[0].title, "Row");
    assert!(rows.rows[0][0].starts_with("row "), "{:?}", rows.rows[0]);
    assert!(table("rack-losses").is_some());
}

/// The floor says what spreading each tier over racks costs against packing them.
#[test]
fn the_floor_weighs_spreading_each_tier_against_packing_it() {
    let spec = engine::DesignSpec::from_json(engine::examples::SUPERPOD_4SU).unwrap();
    let report = engine::evaluate(&spec).unwrap();
    let blocks = super::floor_blocks(&spec, &report, &engine::floor::plan(&spec, &report));
    let said = blocks
        .iter()
        .find_map(|b| match b {
            super::Block::Paragraph { text } if text.contains("spread over two racks") => {
                Some(text.clone())
            }
            _ => None,
        })
        .expect("a sentence on spreading");
    assert!(
        said.contains("no rack's loss takes a whole tier: 5 more network racks than packing each rack full (10 against 5)"),
        "{said}"
    );
}

/// A rack of a large fabric says how many of its thousands of nodes its loss cuts off, with the
/// thousands marked as every other count of the report is.
#[test]
fn a_rack_loss_counts_the_nodes_of_a_large_fabric_in_thousands() {
    let loss = engine::failures::RackLoss {
        rack: "R01-11".into(),
        nodes: 0,
        gpus: 0,
        fabrics: vec![engine::failures::FabricLoss {
            fabric: "inference".into(),
            switches: 1,
            cut_off: 1_280,
            fewer_links: 0,
            of_nodes: 12_500,
        }],
        workloads: vec![],
    };
    let table = super::what_a_place_takes(&[loss], false);
    assert_eq!(
        table.rows[0][2],
        "inference: 1 switch, 1,280 of 12,500 nodes cut off"
    );
}
