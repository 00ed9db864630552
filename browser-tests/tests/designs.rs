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
