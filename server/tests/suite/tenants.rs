//! The tenants page over HTTP: a browser without the design's key is refused, a form with a
//! field at fault is shown again with every error and stores nothing, and a good one is the
//! next revision.

use crate::common::*;
use serde_json::Value;

#[tokio::test]
async fn the_tenants_form_refuses_without_the_key_names_each_fault_and_saves_a_good_one() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let spec: Value = serde_json::from_str(engine::examples::SUPERPOD_4SU).unwrap();
    let design = server.create(&spec).await;
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let send = |fields: Vec<(&'static str, &'static str)>, cookie: Option<String>| {
        let mut request = client
            .post(format!("{}/d/{}/tenants", server.base, design.id))
            .header("origin", &server.base)
            .form(&fields);
        if let Some(cookie) = cookie {
            request = request.header("cookie", cookie);
        }
        request.send()
    };
    let good = vec![
        ("name.0", "research"),
        ("nodes.0", "32"),
        ("isolation.0", "scalable_unit"),
    ];
    let refused = send(good.clone(), None).await.unwrap();
    assert_eq!(refused.status(), 403);
    let bad = send(
        vec![
            ("name.0", "Research Team"),
            ("nodes.0", "500"),
            ("isolation.0", "node"),
        ],
        Some(design.cookie.clone()),
    )
    .await
    .unwrap();
    assert_eq!(bad.status(), 422);
    let page = bad.text().await.unwrap().replace("&#x27;", "'");
    // Each fault in the form's words, on the tenant the form named.
    let faults = page
        .split(r#"id="tenants-errors""#)
        .nth(1)
        .and_then(|rest| rest.split("</ul>").next())
        .unwrap_or_else(|| panic!("the faults are listed: {page}"));
    assert!(!faults.contains("tenants["), "{faults}");
    for fault in [
        "must start with a lower-case letter",
        "is 500, more than the cluster's 127 nodes",
    ] {
        assert!(
            faults.contains("Tenant “Research Team”") && faults.contains(fault),
            "{fault}: {faults}"
        );
    }
    assert_eq!(stored_revisions(&database).await, 1, "nothing was stored");
    let saved = send(good, Some(design.cookie.clone())).await.unwrap();
    assert_eq!(saved.status(), 303);
    assert_eq!(stored_revisions(&database).await, 2);
    let (status, page) = server.page(&format!("/d/{}/tenants", design.id)).await;
    assert_eq!(status, 200);
    assert!(page.contains(r#"id="tenant-placement""#));
    assert!(
        !page.contains(r#"id="tenants-form""#),
        "a browser without the key sees no form"
    );
    server.stop().await;
}
