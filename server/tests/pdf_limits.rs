//! PDFs under pressure, over HTTP: requests that give up do not free a typesetting slot while
//! Typst still runs, and many requests for one PDF typeset it once. Its own test binary, since
//! it reads the process's typesetting counters.

mod common;

use common::*;
use server::report::{TYPESETTING, TYPESETTING_AT_ONCE};
use std::time::Duration;

#[tokio::test]
async fn pdfs_are_typeset_two_at_a_time_and_once_each_however_many_ask() {
    let (_dir, database) = temp_database();
    let server = TestServer::start_limited(&database, 0, 0).await;
    let spec = seventy_b_on_256_gpus();
    let design = server.create(&spec).await;
    for _ in 1..20 {
        let saved = server
            .save_revision(&design.id, &spec, Some(&design.cookie))
            .await;
        assert_eq!(saved.status(), 200);
    }

    // Twenty requests for twenty different PDFs, each abandoned after 50 ms.
    let impatient = reqwest::Client::builder()
        .timeout(Duration::from_millis(50))
        .build()
        .unwrap();
    let abandoned = (1..=20).map(|n| {
        let url = format!("{}/d/{}/r/{n}/report.pdf", server.base, design.id);
        let client = impatient.clone();
        async move { client.get(url).send().await.is_err() }
    });
    let gave_up = futures::future::join_all(abandoned).await;
    assert!(gave_up.iter().all(|g| *g), "every request timed out");
    // The jobs go on without them; wait until all twenty are typeset.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
    while TYPESETTING.typeset() < 20 {
        assert!(tokio::time::Instant::now() < deadline, "the PDFs are made");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        TYPESETTING.most_at_once() <= TYPESETTING_AT_ONCE,
        "{} typeset at once",
        TYPESETTING.most_at_once()
    );
    // Each is kept: asking again typesets nothing.
    let again = server
        .get(&format!("/d/{}/r/7/report.pdf", design.id))
        .await;
    assert_eq!(again.status(), 200);
    assert_eq!(TYPESETTING.typeset(), 20);

    // Twenty requests at once for one PDF not yet made: one job, one typesetting.
    let fresh = server.create(&spec).await;
    let url = format!("{}/d/{}/r/1/report.pdf?paper=letter", server.base, fresh.id);
    let same = (0..20).map(|_| {
        let (client, url) = (server.client.clone(), url.clone());
        async move {
            let response = client.get(url).send().await.unwrap();
            (response.status().as_u16(), response.bytes().await.unwrap())
        }
    });
    let answers = futures::future::join_all(same).await;
    assert!(answers
        .iter()
        .all(|(status, body)| *status == 200 && body.starts_with(b"%PDF")));
    assert_eq!(
        TYPESETTING.typeset(),
        21,
        "typeset once for twenty requests"
    );
    server.stop().await;
}
