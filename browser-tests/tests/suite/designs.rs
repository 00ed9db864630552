//! Saved designs in a real headless Chromium against the release server: the edit link opens a
//! design in another browser, which saves a revision that the history then shows; a browser
//! without the key is refused and duplicates the design as its own instead; a save the server
//! refuses says why.

use browser_tests::{example, Browser, JavaScript, Server};

async fn value_of(browser: &Browser, css: &str) -> String {
    let value = browser
        .run(&format!("return document.querySelector('{css}').value"))
        .await;
    value.as_str().unwrap_or_default().to_string()
}

/// Goes to the review step, writes `note` and saves; returns the text saying what was saved.
async fn save_with_note(browser: &Browser, note: &str) -> String {
    browser.click("#step-review").await;
    browser.type_into("#save-note", note).await;
    browser.click("#save").await;
    browser
        .wait_for_text("#share", |t| t.starts_with("Saved revision"))
        .await
}

#[tokio::test]
async fn the_edit_link_opens_the_design_in_another_browser_whose_revision_the_history_shows() {
    let server = Server::start().await;

    // The creator saves a design and is shown its edit link once.
    let creator = Browser::start(JavaScript::Enabled).await;
    creator.goto(&server.url("/")).await;
    creator.wait_for_hydration().await;
    creator.type_into("#title", "Pod for review").await;
    let saved = save_with_note(&creator, "first cut").await;
    assert!(saved.starts_with("Saved revision 1."), "{saved}");
    let share = creator.attribute("#share-link", "href").await.unwrap();
    let share = share.trim_start_matches(&server.url("")).to_string();
    let edit_link = creator.attribute("#edit-link", "href").await.unwrap();
    assert!(edit_link.contains("/claim?key="), "{edit_link}");
    creator.close().await;

    // A second browser opens the edit link and confirms: it lands in the planner on the stored
    // design, changes it and saves revision 2.
    let colleague = Browser::start(JavaScript::Enabled).await;
    colleague
        .goto(&server.url(edit_link.trim_start_matches(&server.url(""))))
        .await;
    colleague.click("#claim-confirm").await;
    colleague.wait_for_hydration().await;
    let at = colleague.run("return location.pathname").await;
    assert_eq!(at, serde_json::json!(format!("{share}/edit")));
    assert_eq!(value_of(&colleague, "#title").await, "Pod for review");
    colleague
        .type_into("#title", "Pod for review, revised")
        .await;
    colleague.click("#step-review").await;
    assert_eq!(colleague.text("#save").await, "Save a new revision");
    let saved = save_with_note(&colleague, "retitled").await;
    assert!(saved.starts_with("Saved revision 2."), "{saved}");
    assert!(
        !colleague.exists("#edit-link").await,
        "a revision shows no new edit link"
    );

    // The share link now shows revision 2, with both revisions and their notes in the history.
    colleague.goto(&server.url(&share)).await;
    let history = colleague.text("#revisions tbody").await;
    assert!(
        history.contains("retitled") && history.contains("first cut"),
        "{history}"
    );
    let rows = colleague
        .run("return document.querySelectorAll('#revisions tbody tr').length")
        .await;
    assert_eq!(rows, serde_json::json!(2));
    colleague.close().await;

    // A browser without the key cannot edit; it duplicates the design as a new one of its own.
    let stranger = Browser::start(JavaScript::Enabled).await;
    stranger.goto(&server.url(&format!("{share}/edit"))).await;
    stranger.wait_for("#not-editable", true).await;
    stranger.click("#duplicate-instead").await;
    stranger.wait_for_hydration().await;
    assert_eq!(
        value_of(&stranger, "#title").await,
        "Pod for review, revised (copy)",
        "the copy starts from the newest revision"
    );
    let saved = save_with_note(&stranger, "my copy").await;
    assert!(saved.starts_with("Saved revision 1."), "{saved}");
    let copy = stranger.attribute("#share-link", "href").await.unwrap();
    assert!(
        !copy.ends_with(&share),
        "the copy is a new design: {copy} and {share}"
    );
    assert!(
        stranger.exists("#edit-link").await,
        "with its own edit link"
    );
    stranger.close().await;
}

#[tokio::test]
async fn a_save_the_server_refuses_shows_its_reason_and_keeps_the_edits() {
    let server = Server::start().await;
    let spec = example("rag.json");
    let created = server.create(&spec).await;

    // The browser takes the edit key and opens the design, then loses the key (its cookies
    // cleared) before saving: the server refuses the revision with 403.
    let browser = Browser::start(JavaScript::Enabled).await;
    browser.goto(&server.url(&created.edit_link)).await;
    browser.click("#claim-confirm").await;
    browser.wait_for_hydration().await;
    browser.type_into("#title", "RAG pod, edited").await;
    browser.client.delete_all_cookies().await.unwrap();
    browser.click("#step-review").await;
    browser.click("#save").await;
    let refusal = browser
        .wait_for_text(".save-error", |t| !t.is_empty())
        .await;
    assert!(
        refusal.starts_with("not allowed:") && refusal.contains("duplicate it instead"),
        "{refusal}"
    );
    assert!(
        !browser.exists("#share").await,
        "nothing is said to be saved"
    );
    assert_eq!(value_of(&browser, "#title").await, "RAG pod, edited");
    browser.close().await;
}

/// Rows of the tenants' placement table on the page.
async fn rows(browser: &Browser) -> u64 {
    browser
        .run("return document.querySelectorAll('#tenant-placement tbody tr').length")
        .await
        .as_u64()
        .unwrap_or(0)
}

/// The 96-node SuperPOD on RoCE (ECMP) with two 40-node jobs, one of them a tenant's.
fn shared_fabric() -> serde_json::Value {
    let mut spec: serde_json::Value = serde_json::from_str(engine::examples::SUPERPOD_4SU).unwrap();
    spec.as_object_mut().unwrap().remove("growth");
    spec["cluster"]["nodes"] = 96.into();
    let compute = &mut spec["fabrics"][0];
    compute["technology"] = "roce400".into();
    compute["switch"] = "sn5400".into();
    compute["port_gbps"] = 400.into();
    compute["extra_endpoints"] = 0.into();
    let template = spec["workloads"][0].clone();
    let job = |name: &str| {
        let mut w = template.clone();
        w["name"] = name.into();
        w["model"] = serde_json::json!({"preset": "llama3-70b", "parameters": 70e9, "layers": 80, "hidden": 8192, "sequence_length": 8192, "precision": "bf16"});
        w["parallelism"] = serde_json::json!({"dp": 40, "tp": 8, "pp": 1, "sharding": "zero1"});
        w["global_batch"] = 160.into();
        w
    };
    let storage = spec["workloads"][1].clone();
    spec["workloads"] = serde_json::json!([job("first"), job("second"), storage]);
    spec["tenants"] = serde_json::json!([{"name": "first", "workloads": ["first"]}]);
    spec
}

/// A second tenant added on the design's tenants page becomes the next revision: the page
/// places it (units 2–3, meeting the first tenant on unit 2's leaves), says how much the first
/// one's traffic slows it on the hashed fabric, and the revision's hand-off gives it a Slurm
/// partition of its own.
#[tokio::test]
async fn a_second_tenant_is_placed_slowed_and_handed_off() {
    let server = Server::start().await;
    let (browser, id) = server.claimed(&shared_fabric()).await;
    browser.goto(&server.url(&format!("/d/{id}"))).await;
    browser.click("#design-tenants").await;
    browser.wait_for("#tenants-form", true).await;
    assert_eq!(rows(&browser).await, 1);

    browser.type_into("#tenant-1-name", "second").await;
    browser.click("#tenant-1-workload-1").await;
    browser.select("#tenant-1-isolation", "node").await;
    browser.click("#tenants-save").await;
    browser
        .wait_for_text("#tenant-placement", |t| t.contains("second"))
        .await;
    assert_eq!(rows(&browser).await, 2);
    let placement = browser.text("#tenant-placement").await;
    assert!(placement.contains("nodes 41–80"), "{placement}");
    let interference = browser.text("#tenant-interference").await;
    let second = interference
        .lines()
        .find(|l| l.starts_with("second"))
        .unwrap_or_else(|| panic!("{interference}"))
        .to_string();
    assert!(
        second.contains("alone,") && second.contains("worst"),
        "{second}"
    );

    let partitions = |n: u32| {
        let url = server.url(&format!("/d/{id}/r/{n}/handoff/slurm/partitions.conf"));
        async move { reqwest::get(url).await.unwrap().text().await.unwrap() }
    };
    let before = partitions(1).await;
    let after = partitions(2).await;
    assert!(!before.contains("PartitionName=second"), "{before}");
    assert!(
        after.contains("PartitionName=second Nodes=node-[41-80]"),
        "{after}"
    );
    browser.close().await;
}
