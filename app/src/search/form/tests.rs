use super::*;

fn query(pairs: &[(&str, &str)]) -> HashMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn a_submitted_form_reads_back_from_its_own_query() {
    let form = SearchForm {
        budget_usd: "2 000 000".into(),
        run: true,
        ..SearchForm::default()
    };
    let parsed: HashMap<String, String> = form
        .query()
        .split('&')
        .filter_map(|p| p.split_once('='))
        .map(|(k, v)| (k.to_string(), v.replace("%20", " ")))
        .collect();
    assert_eq!(SearchForm::from_query(&parsed), form);
}

#[test]
fn text_where_a_number_belongs_is_refused_by_its_label() {
    let form = SearchForm::from_query(&query(&[
        ("run", "1"),
        ("slowdown", "five"),
        ("tech-ib_ndr", "on"),
    ]));
    let errors = form.request(crate::templates::first_design()).unwrap_err();
    assert_eq!(
        errors,
        vec!["Largest training slowdown: \"five\" is not a number of at least 0"]
    );
}

#[test]
fn lists_of_choices_are_read_and_each_wrong_value_is_named() {
    let form = SearchForm::from_query(&query(&[
        ("run", "1"),
        ("tech-ib_ndr", "on"),
        ("fabrics-as-designed", "on"),
        ("fabrics-separate", "on"),
        ("leaf-oversubscription", "1, 2 3"),
        ("nics", "1,8"),
        ("tiers", "2"),
        ("growth", "512"),
        ("read-headroom", "1.2"),
        ("goodput", "97.5"),
    ]));
    let request = form.request(crate::templates::first_design()).unwrap();
    assert_eq!(request.freedoms.leaf_oversubscription, vec![1.0, 2.0, 3.0]);
    assert_eq!(request.freedoms.nics_per_node, vec![1, 8]);
    assert_eq!(
        request.freedoms.arrangements,
        vec![Arrangement::AsDesigned, Arrangement::Separate]
    );
    assert_eq!(request.constraints.max_tiers, Some(2));
    assert_eq!(request.constraints.growth_target_nodes, Some(512));
    assert_eq!(request.targets.every_workload.min_read_headroom, Some(1.2));
    assert_eq!(
        request.targets.every_workload.min_goodput_percent,
        Some(97.5)
    );

    let form = SearchForm::from_query(&query(&[
        ("run", "1"),
        ("tech-ib_ndr", "on"),
        ("leaf-oversubscription", "0.5, x"),
        ("nics", "0"),
        ("tiers", "two"),
    ]));
    assert_eq!(
        form.request(crate::templates::first_design()).unwrap_err(),
        vec![
            "Most switch tiers: \"two\" is not a whole number of at least 1",
            "Leaf oversubscriptions to try: \"0.5\" is not a ratio of at least 1",
            "Leaf oversubscriptions to try: \"x\" is not a ratio of at least 1",
            "NICs per node to try: \"0\" is not a whole number of at least 1",
        ]
    );
}

#[test]
fn no_technology_is_refused() {
    let form = SearchForm::from_query(&query(&[("run", "1")]));
    let errors = form.request(crate::templates::first_design()).unwrap_err();
    assert_eq!(errors, vec!["Technologies: choose at least one"]);
}

#[test]
fn the_tenants_isolation_and_its_stranded_gpus_read_back_and_reach_the_request() {
    let form = SearchForm::from_query(&query(&[
        ("run", "1"),
        ("tech-ib_ndr", "on"),
        ("isolation-node", "on"),
        ("isolation-scalable_unit", "on"),
        ("stranded", "64"),
    ]));
    assert_eq!(
        form.tenant_isolation,
        [engine::Isolation::Node, engine::Isolation::ScalableUnit]
    );
    let parsed: HashMap<String, String> = form
        .query()
        .split('&')
        .filter_map(|p| p.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    assert_eq!(SearchForm::from_query(&parsed), form);
    let mut base = crate::templates::first_design();
    base.tenants = vec![engine::Tenant {
        name: "team".into(),
        workloads: Vec::new(),
        nodes: Some(2),
        isolation: engine::Isolation::Node,
        first_unit: None,
    }];
    let request = form.request(base).unwrap();
    assert_eq!(request.freedoms.tenant_isolation, form.tenant_isolation);
    assert_eq!(request.constraints.max_stranded_gpus, Some(64));
}
