//! PDFs under pressure, over HTTP: requests that give up do not free a typesetting slot while
//! Typst still runs, and many requests for one PDF typeset it once. Its own test binary, since
//! it reads the process's typesetting counters.

use crate::common::*;
use server::resources::report::{TYPESETTING, TYPESETTING_AT_ONCE};
use std::time::Duration;

/// Different PDFs asked for and abandoned: more than can be typeset at once. (Tests build Typst without
/// optimisation, so each PDF takes seconds; the count keeps the test short.)
const ABANDONED: u32 = 8;

#[tokio::test]
async fn pdfs_are_typeset_two_at_a_time_and_once_each_however_many_ask() {
    let (_dir, database) = temp_database();
    let server = TestServer::start_limited(&database, 0, 0).await;
    let spec = seventy_b_on_256_gpus();
    let design = server.create(&spec).await;
    for _ in 1..ABANDONED {
        let saved = server
            .save_revision(&design.id, &spec, Some(&design.cookie))
            .await;
        assert_eq!(saved.status(), 200);
    }

    // Twenty requests for eight different PDFs, each abandoned after 50 ms.
    let impatient = reqwest::Client::builder()
        .timeout(Duration::from_millis(50))
        .build()
        .unwrap();
    let abandoned = (0..20).map(|i| {
        let n = i % ABANDONED + 1;
        let url = format!("{}/d/{}/r/{n}/report.pdf", server.base, design.id);
        let client = impatient.clone();
        async move { client.get(url).send().await.is_err() }
    });
    let gave_up = futures::future::join_all(abandoned).await;
    assert!(gave_up.iter().all(|g| *g), "every request timed out");
    // The jobs go on without them; wait until all are typeset.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(600);
    while TYPESETTING.typeset() < ABANDONED as usize {
        assert!(
            tokio::time::Instant::now() < deadline,
            "{} of the PDFs made",
            TYPESETTING.typeset()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        TYPESETTING.most_at_once() <= TYPESETTING_AT_ONCE,
        "{} typeset at once",
        TYPESETTING.most_at_once()
    );
    // Each is kept: asking again typesets nothing.
    let again = server
        .get(&format!("/d/{}/r/3/report.pdf", design.id))
        .await;
    assert_eq!(again.status(), 200);
    assert_eq!(TYPESETTING.typeset(), ABANDONED as usize);

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
        ABANDONED as usize + 1,
        "typeset once for twenty requests"
    );
    server.stop().await;
}
