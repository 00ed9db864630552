use super::holds;
use engine::floor::{Device, Rack};
use engine::{Kilowatts, Watts};

fn device(role: &str) -> Device {
    Device {
        label: format!("{role}-1"),
        role: role.into(),
        u: 1,
        height_u: 1,
        power_w: Watts(0.0),
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
        load_kw: Kilowatts(0.0),
        feed_kw: Kilowatts(0.0),
        over_budget: false,
        past_air_limit: false,
    };
    assert_eq!(holds(&rack), "2 leaves, 1 spine");
}
