//! The same store on PostgreSQL, chosen by configuration alone: the server started with a
//! `postgres://` database creates designs, refuses a wrong key without writing, numbers
//! concurrent saves in order, lists and shows designs, and migrates a database twice safely.
//!
//! These tests need a PostgreSQL server: `FABRIC_PLANNER_TEST_POSTGRES` is the URL of a
//! database on it whose user may create databases (`scripts/test.sh` starts one with
//! `scripts/postgres.sh`). Each test works in a database of its own, dropped at the end.

use crate::common::*;
use app::store::{
    AddOutcome, Database, DesignId, EditKey, KeptFindings, NewBaseline, NewCheck, Store, Tool,
};
use serde_json::{json, Value};
use sqlx::migrate::MigrateDatabase;
use std::collections::BTreeSet;

/// A fresh database on the test server, or `None` (with a message) when no server is
/// configured; `scripts/test.sh` sets `FABRIC_PLANNER_REQUIRE_POSTGRES` so that there a missing
/// server fails the test instead.
async fn fresh_database(name: &str) -> Option<String> {
    let Ok(admin) = std::env::var("FABRIC_PLANNER_TEST_POSTGRES") else {
        assert!(
            std::env::var_os("FABRIC_PLANNER_REQUIRE_POSTGRES").is_none(),
            "FABRIC_PLANNER_TEST_POSTGRES is not set: start a server with scripts/postgres.sh start"
        );
        eprintln!("skipped: FABRIC_PLANNER_TEST_POSTGRES is not set");
        return None;
    };
    sqlx::any::install_default_drivers();
    let base = admin
        .rsplit_once('/')
        .map_or(admin.as_str(), |(base, _)| base);
    let url = format!("{base}/fp_{name}_{}", std::process::id());
    if sqlx::Any::database_exists(&url).await.unwrap() {
        sqlx::Any::drop_database(&url).await.unwrap();
    }
    sqlx::Any::create_database(&url).await.unwrap();
    Some(url)
}

async fn drop_database(url: &str) {
    sqlx::Any::force_drop_database(url).await.unwrap();
}

async fn start(url: &str) -> TestServer {
    TestServer::start_on(Database::Postgres(url.to_string()), 0, 0).await
}

fn with_gpus(gpus: u32) -> Value {
    let mut spec = seventy_b_on_256_gpus();
    spec["training"]["gpus"] = json!(gpus);
    spec
}

#[tokio::test]
async fn on_postgres_a_design_is_created_revised_listed_and_shown_and_a_wrong_key_writes_nothing() {
    let Some(url) = fresh_database("round_trip").await else {
        return;
    };
    let server = start(&url).await;
    let design = server.create(&seventy_b_on_256_gpus()).await;
    let other = server.create(&with_gpus(128)).await;

    let response = server
        .save_revision(&design.id, &with_gpus(512), Some(&other.cookie))
        .await;
    assert_eq!(response.status(), 403, "another design's key is refused");
    let response = server
        .save_revision(
            "aaaaaaaaaaaaaaaaaaaaaaaa",
            &with_gpus(512),
            Some(&design.cookie),
        )
        .await;
    assert_eq!(response.status(), 404);
    let response = server
        .save_revision(&design.id, &with_gpus(512), Some(&design.cookie))
        .await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.json::<Value>().await.unwrap()["revision"], 2);

    let (status, html) = server.page(&format!("/d/{}", design.id)).await;
    assert_eq!(status, 200);
    assert!(html.contains("70B on 32 nodes"));
    assert!(
        html.contains(&format!("/d/{}/r/1", design.id)),
        "the history"
    );
    let (status, first) = server.page(&format!("/d/{}/r/1", design.id)).await;
    assert_eq!(status, 200);
    assert!(shows_bytes_per_step_of_256_gpus(&first));

    let listing = server
        .get_with_cookie("/designs", &design.cookie)
        .await
        .text()
        .await
        .unwrap();
    assert!(listing.contains(&design.id) && !listing.contains(&other.id));

    let revisions: Value = server
        .get(&format!("/api/designs/{}/revisions", design.id))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(revisions["revisions"].as_array().unwrap().len(), 2);
    // Each listed with its spec's title, kept beside the spec.
    let title = seventy_b_on_256_gpus()["title"].clone();
    assert!(
        revisions["revisions"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["title"] == title && title.is_string()),
        "{revisions}"
    );
    server.stop().await;

    let store = Store::connect(&Database::Postgres(url.clone()))
        .await
        .unwrap();
    assert_eq!(store.design_count().await.unwrap(), 2);
    assert_eq!(store.revision_count().await.unwrap(), 3);
    assert_eq!(store.integrity_check().await.unwrap(), "ok");

    // Baselines: added with the key against an existing revision, refused otherwise.
    let id = DesignId::parse(&design.id).unwrap();
    let key = EditKey::parse(&design.key).unwrap();
    let baseline = |revision| NewBaseline {
        revision,
        fabric: "compute",
        label: "after cabling",
        measured_on: "2026-11-02",
        output: "1048576 262144 float sum -1 71.5 14.66 21.99 0",
        stated: engine::baseline::Stated {
            ranks: Some(256),
            nodes: Some(32),
        },
    };
    assert_eq!(
        store.add_baseline(&id, &key, &baseline(2)).await.unwrap(),
        AddOutcome::Added(1)
    );
    assert_eq!(
        store.add_baseline(&id, &key, &baseline(3)).await.unwrap(),
        AddOutcome::NoSuchRevision
    );
    let wrong = EditKey::parse(&other.key).unwrap();
    assert_eq!(
        store.add_baseline(&id, &wrong, &baseline(1)).await.unwrap(),
        AddOutcome::WrongKey
    );
    let stored = store.baselines(&id).await.unwrap();
    assert_eq!(stored.len(), 1);
    assert_eq!((stored[0].number, stored[0].revision), (1, 2));
    assert_eq!(
        (stored[0].stated.ranks, stored[0].stated.nodes),
        (Some(256), Some(32))
    );
    assert_eq!(store.baseline_count().await.unwrap(), 1);

    // As-built checks: kept with the key against an existing revision, with what they found.
    let found = engine::asbuilt::AsBuiltCheck {
        as_planned: Vec::new(),
        findings: Vec::new(),
        extra: Vec::new(),
        total: engine::asbuilt::Summary {
            as_planned: 510,
            missing: 2,
            ..Default::default()
        },
        by_switch: Vec::new(),
        by_rail: Vec::new(),
    };
    let check = |revision| NewCheck {
        revision,
        fabric: "compute",
        tool: Tool::Ibnetdiscover,
        device: "",
        label: "after cabling",
        checked_on: "2026-11-03",
        found: &found,
    };
    assert_eq!(
        store.add_check(&id, &key, &check(2)).await.unwrap(),
        AddOutcome::Added(1)
    );
    assert_eq!(
        store.add_check(&id, &key, &check(3)).await.unwrap(),
        AddOutcome::NoSuchRevision
    );
    assert_eq!(
        store.add_check(&id, &wrong, &check(2)).await.unwrap(),
        AddOutcome::WrongKey
    );
    let kept = store.checks(&id, 2).await.unwrap();
    assert_eq!(kept.len(), 1);
    assert_eq!((kept[0].found.as_planned, kept[0].found.missing), (510, 2));
    assert_eq!(kept[0].found.name, "after cabling");
    assert_eq!(store.check_count(&id, 1).await.unwrap(), 0);
    assert_eq!(
        store.kept_findings(&id, 1).await.unwrap(),
        Some(KeptFindings::Found(Box::new(found.clone())))
    );
    store.close().await;
    drop_database(&url).await;
}

#[tokio::test]
async fn on_postgres_concurrent_saves_on_one_design_persist_as_distinct_revisions_in_order() {
    let Some(url) = fresh_database("concurrent").await else {
        return;
    };
    let server = start(&url).await;
    let design = server.create(&seventy_b_on_256_gpus()).await;
    let saves = (0..100).map(|i| {
        let (client, base, id, key) = (
            server.client.clone(),
            server.base.clone(),
            design.id.clone(),
            design.key.clone(),
        );
        tokio::spawn(async move {
            let response = client
                .post(format!("{base}/api/designs/{id}/revisions"))
                .header("authorization", format!("Bearer {key}"))
                .header("content-type", "application/json")
                .body(
                    json!({ "spec": seventy_b_on_256_gpus(), "note": format!("save {i}") })
                        .to_string(),
                )
                .send()
                .await
                .unwrap();
            assert_eq!(response.status(), 201);
            response.json::<Value>().await.unwrap()["revision"]
                .as_u64()
                .unwrap()
        })
    });
    let mut numbers = BTreeSet::new();
    for save in saves {
        assert!(numbers.insert(save.await.unwrap()), "no number given twice");
    }
    assert_eq!(numbers, (2..=101).collect::<BTreeSet<u64>>());
    server.stop().await;
    let store = Store::connect(&Database::Postgres(url.clone()))
        .await
        .unwrap();
    assert_eq!(store.revision_count().await.unwrap(), 101);
    assert_eq!(store.integrity_check().await.unwrap(), "ok");
    store.close().await;
    drop_database(&url).await;
}

#[tokio::test]
async fn on_postgres_migrating_again_keeps_the_stored_designs() {
    let Some(url) = fresh_database("migrate_again").await else {
        return;
    };
    let server = start(&url).await;
    let design = server.create(&seventy_b_on_256_gpus()).await;
    server.stop().await;
    let server = start(&url).await;
    let (status, html) = server.page(&format!("/d/{}", design.id)).await;
    assert_eq!(status, 200);
    assert!(html.contains("70B on 32 nodes"));
    server.stop().await;
    drop_database(&url).await;
}
