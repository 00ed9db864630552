//! Saves under contention and crashes: concurrent saves on one design all persist as distinct
//! revisions in order, and a server killed mid-save keeps every revision it acknowledged.

use crate::common::*;
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

fn with_note(spec: &Value, note: String) -> Value {
    json!({ "spec": spec, "note": note })
}

async fn save_via_api(
    client: &reqwest::Client,
    base: &str,
    id: &str,
    key: &str,
    note: String,
) -> Option<u64> {
    let response = client
        .post(format!("{base}/api/designs/{id}/revisions"))
        .header("authorization", format!("Bearer {key}"))
        .header("content-type", "application/json")
        .body(with_note(&seventy_b_on_256_gpus(), note).to_string())
        .send()
        .await
        .ok()?;
    if response.status() != 201 {
        return None;
    }
    response.json::<Value>().await.ok()?["revision"].as_u64()
}

async fn create_via_api(client: &reqwest::Client, base: &str) -> (String, String) {
    let created: Value = client
        .post(format!("{base}/api/designs"))
        .header("content-type", "application/json")
        .body(with_note(&seventy_b_on_256_gpus(), "first".into()).to_string())
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    (
        created["id"].as_str().unwrap().to_string(),
        created["edit_key"].as_str().unwrap().to_string(),
    )
}

/// The notes of design `id`'s revisions, by revision number.
async fn notes(client: &reqwest::Client, base: &str, id: &str) -> Vec<(u64, String)> {
    let list: Value = client
        .get(format!("{base}/api/designs/{id}/revisions"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let mut notes: Vec<(u64, String)> = list["revisions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["number"].as_u64().unwrap(),
                r["note"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    notes.sort();
    notes
}

#[tokio::test]
async fn two_hundred_concurrent_saves_on_one_design_persist_as_distinct_revisions_in_order() {
    let (_dir, database) = temp_database();
    let server = TestServer::start_limited(&database, 0, 0).await;
    let (id, key) = create_via_api(&server.client, &server.base).await;
    let saves = (0..200).map(|i| {
        let (client, base, id, key) = (
            server.client.clone(),
            server.base.clone(),
            id.clone(),
            key.clone(),
        );
        tokio::spawn(async move {
            (
                i,
                save_via_api(&client, &base, &id, &key, format!("save {i}")).await,
            )
        })
    });
    let mut numbers = BTreeSet::new();
    let mut acknowledged = vec![];
    for save in saves {
        let (i, number) = save.await.unwrap();
        let number = number.expect("every save is acknowledged");
        assert!(numbers.insert(number), "revision {number} given twice");
        acknowledged.push((number, format!("save {i}")));
    }
    assert_eq!(
        numbers,
        (2..=201).collect::<BTreeSet<u64>>(),
        "numbered 2 to 201 without gaps"
    );
    acknowledged.sort();
    let stored = notes(&server.client, &server.base, &id).await;
    assert_eq!(stored.len(), 201);
    assert_eq!(
        &stored[1..],
        &acknowledged[..],
        "each revision holds the save acknowledged with its number"
    );
    server.stop().await;
    assert_eq!(stored_revisions(&database).await, 201);
    // The file the server made is in write-ahead-log mode (a setting SQLite keeps in the file).
    let pool = sqlx::SqlitePool::connect(&format!("sqlite://{}", database.display()))
        .await
        .unwrap();
    let mode: String = sqlx::query_scalar("PRAGMA journal_mode")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(mode, "wal");
    pool.close().await;
}

#[tokio::test]
async fn a_server_killed_during_concurrent_saves_restarts_with_every_acknowledged_revision_intact()
{
    let (_dir, database) = temp_database();
    let start = || {
        let mut child = Command::new(env!("CARGO_BIN_EXE_fabric-planner"))
            .args([
                "serve",
                "--addr",
                "127.0.0.1:0",
                "--writes-per-minute",
                "0",
                // Every save in flight is served, none shed: the test is about the kill.
                "--max-concurrent-requests",
                "1024",
                "--database",
            ])
            .arg(&database)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .trim()
            .rsplit(' ')
            .next()
            .unwrap()
            .trim_end_matches('/')
            .to_string();
        (child, url)
    };
    let (mut child, base) = start();
    let client = reqwest::Client::new();
    let (id, key) = create_via_api(&client, &base).await;
    let done = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let saves: Vec<_> = (0..400)
        .map(|i| {
            let (client, base, id, key) = (client.clone(), base.clone(), id.clone(), key.clone());
            let done = done.clone();
            tokio::spawn(async move {
                let ack = save_via_api(&client, &base, &id, &key, format!("save {i}")).await;
                if ack.is_some() {
                    done.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                }
                ack.map(|n| (n, format!("save {i}")))
            })
        })
        .collect();
    // Kill it once some saves are acknowledged and others are still in flight.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while done.load(std::sync::atomic::Ordering::SeqCst) < 40 {
        assert!(
            std::time::Instant::now() < deadline,
            "saves were acknowledged"
        );
        tokio::time::sleep(std::time::Duration::from_millis(2)).await;
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let mut acknowledged = vec![];
    for save in saves {
        if let Some(ack) = save.await.unwrap() {
            acknowledged.push(ack);
        }
    }
    assert!(
        !acknowledged.is_empty() && acknowledged.len() < 400,
        "killed mid-way: {} acknowledged",
        acknowledged.len()
    );

    let (mut child, base) = start();
    let stored = notes(&client, &base, &id).await;
    for ack in &acknowledged {
        assert!(
            stored.contains(ack),
            "acknowledged revision {ack:?} survived"
        );
    }
    let numbers: Vec<u64> = stored.iter().map(|(n, _)| *n).collect();
    assert_eq!(
        numbers,
        (1..=stored.len() as u64).collect::<Vec<_>>(),
        "no gaps"
    );
    child.kill().unwrap();
    child.wait().unwrap();
    let store = app::store::Store::open(&database).await.unwrap();
    assert_eq!(store.integrity_check().await.unwrap(), "ok");
    store.close().await;
}
