use std::os::unix::process::CommandExt;
use std::process::{Child, Command};

/// A child process in its own process group; the whole group is killed on drop.
pub struct GroupChild {
    pub child: Child,
}

impl GroupChild {
    pub fn spawn(command: &mut Command) -> std::io::Result<GroupChild> {
        let child = command.process_group(0).spawn()?;
        Ok(GroupChild { child })
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Kills every process of the group and reaps the leader.
    pub fn kill(&mut self) {
        let group = self.child.id() as libc::pid_t;
        // SAFETY: kill(2) with a negative pid signals the process group we created; it has no
        // memory-safety preconditions.
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
        let _ = self.child.wait();
    }
}

impl Drop for GroupChild {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A TCP port that was free a moment ago.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|addr| addr.port())
        .expect("a free local port")
}

/// Waits until something accepts connections on `port`.
pub async fn wait_for_port(port: u16, what: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .is_err()
    {
        assert!(
            std::time::Instant::now() < deadline,
            "{what} did not start listening on port {port}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}
