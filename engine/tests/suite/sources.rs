//! Every short citation a design's report or assumptions carry leads to a listed public source
//! with a web address: no figure cites a document the reader cannot open.

use engine::sources::{citations, source_for};
use engine::{assumptions, evaluate, examples, DesignSpec};

#[test]
fn every_citation_of_every_example_is_in_the_list_of_sources() {
    for (name, text) in examples::ALL {
        let spec = DesignSpec::from_json(text).unwrap();
        let report = evaluate(&spec).unwrap();
        let mut cited = serde_json::to_string(&report).unwrap();
        cited.push_str(&serde_json::to_string(&assumptions(&spec)).unwrap());
        let found = citations(&cited);
        assert!(!found.is_empty(), "{name} cites nothing");
        for cite in found {
            assert!(
                source_for(&cite).is_some(),
                "{name} cites {cite}, which is not listed"
            );
        }
    }
}

#[test]
fn the_validation_table_cites_only_listed_sources() {
    let rows = serde_json::to_string(&engine::validation::validation_rows()).unwrap();
    for cite in citations(&rows) {
        assert!(source_for(&cite).is_some(), "{cite} is not listed");
    }
}
