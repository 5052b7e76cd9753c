//! The single-node Slurm cluster the checks run in: finding the programs, telling why this
//! machine cannot run it ([`missing`]), starting munged, slurmctld and slurmd in a scratch folder
//! ([`start_cluster`]), submitting a batch script and waiting for it ([`Cluster::sbatch`]), and
//! stopping everything again when the [`Cluster`] is dropped, on success or on a failed assertion.

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

pub(super) use crate::common::SHANNON;
/// The key the Debian package made (munged reads it as the `munge` user).
const MUNGE_KEY: &str = "/etc/munge/munge.key";
const PROGRAMS: [&str; 7] = [
    "munged",
    "slurmctld",
    "slurmd",
    "sbatch",
    "sinfo",
    "scancel",
    "runuser",
];

fn find(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/usr/bin", "/sbin", "/bin"].map(PathBuf::from))
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

fn program(name: &str) -> PathBuf {
    find(name).unwrap_or_else(|| panic!("{name} was there a moment ago"))
}

/// Why this machine cannot run the cluster, or `None` when it can.
pub(super) fn missing() -> Option<String> {
    if let Some(name) = PROGRAMS.iter().find(|p| find(p).is_none()) {
        return Some(format!(
            "{name} is not installed (apt-get install slurm-wlm)"
        ));
    }
    match std::fs::metadata("/proc/self") {
        Ok(meta) if meta.uid() == 0 => {}
        Ok(_) => return Some("a Slurm cluster of its own needs root".into()),
        Err(e) => return Some(format!("no /proc to tell the user and the processes: {e}")),
    }
    if !Path::new(MUNGE_KEY).is_file() {
        return Some(format!(
            "no munge key at {MUNGE_KEY} (apt-get install munge)"
        ));
    }
    let munge_user = Command::new("id").args(["-u", "munge"]).output();
    if !munge_user.is_ok_and(|out| out.status.success()) {
        return Some("there is no munge user (apt-get install munge)".into());
    }
    None
}

/// Two free TCP ports for slurmctld and slurmd, derived from the process id (so two test
/// processes do not pick the same) and below the ephemeral range.
fn free_ports() -> (u16, u16) {
    let free = |port: u16| std::net::TcpListener::bind(("0.0.0.0", port)).is_ok();
    let mut base = 10_000 + (std::process::id() % 5_000) as u16 * 4;
    for _ in 0..5_000 {
        if free(base) && free(base + 1) {
            return (base, base + 1);
        }
        base = if base >= 29_990 { 10_000 } else { base + 2 };
    }
    panic!("no two free ports between 10000 and 30000");
}

/// A process that exists and is not a zombie (daemons that exit are reparented, and their
/// zombie waits for whoever reaps it: they are gone as far as we are concerned).
fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            let after = &stat[stat.rfind(')').map_or(0, |i| i + 1)..];
            after.split_whitespace().next() != Some("Z")
        }
        Err(_) => false,
    }
}

fn command_line(pid: u32) -> String {
    let raw = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    String::from_utf8_lossy(&raw).replace('\0', " ")
}

/// The live processes that belong to the cluster in `dir`: those that name it on their command
/// line (the daemons) or work in it (the job's tasks).
pub(super) fn processes_of(dir: &Path) -> Vec<(u32, String)> {
    let text = dir.to_string_lossy();
    let me = std::process::id();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_string_lossy().parse::<u32>().ok())
        .filter(|&pid| pid != me && alive(pid))
        .filter_map(|pid| {
            let line = command_line(pid);
            let cwd = std::fs::read_link(format!("/proc/{pid}/cwd")).unwrap_or_default();
            (line.contains(text.as_ref()) || cwd.starts_with(dir)).then_some((pid, line))
        })
        .collect()
}

fn signal(pid: u32, name: &str) {
    let _ = Command::new("kill")
        .args([&format!("-{name}"), &pid.to_string()])
        .stderr(Stdio::null())
        .status();
}

/// Wait up to `limit` for every pid in `pids` to be gone; true when they are.
fn gone(pids: &[u32], limit: Duration) -> bool {
    let started = Instant::now();
    loop {
        if pids.iter().all(|&pid| !alive(pid)) {
            return true;
        }
        if started.elapsed() > limit {
            return false;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Run `command`, killing it after `limit`: its output, or `None` when it ran out of time.
pub(super) fn run_for(command: &mut Command, limit: Duration) -> Option<Output> {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{command:?} does not start: {e}"));
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => return child.wait_with_output().ok(),
            Ok(None) if started.elapsed() < limit => std::thread::sleep(Duration::from_millis(100)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
}

/// A daemon this test started: the pid file it writes, and the child the test waits for (the
/// daemon itself, or `runuser` for munged).
struct Daemon {
    pid_file: PathBuf,
    child: Child,
}

/// One single-node cluster in its own folder. Dropping it stops every daemon it started and
/// waits for them, then removes the folder.
pub(super) struct Cluster {
    dir: PathBuf,
    conf: PathBuf,
    /// The daemons started so far, in the order they were started.
    daemons: Vec<Daemon>,
    node: String,
}

impl Cluster {
    /// A Slurm client command that talks to this cluster (and to no other: the Slurm variables
    /// of the environment the tests run in are left out).
    fn client(&self, name: &str) -> Command {
        let mut command = Command::new(program(name));
        for (key, _) in std::env::vars_os() {
            let key = key.to_string_lossy().into_owned();
            if key.starts_with("SLURM_") || key.starts_with("SBATCH_") {
                command.env_remove(key);
            }
        }
        command.env("SLURM_CONF", &self.conf);
        command
    }

    /// Start a daemon in the foreground, as a child of this process (so that it is reaped here
    /// when it stops, not left a zombie for init), and wait for its `pid_file`.
    fn daemon(&mut self, mut command: Command, pid_file: PathBuf) {
        // No pipes: nobody reads them (the daemons log to files in the folder).
        let child = command
            .env("SLURM_CONF", &self.conf)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{command:?} does not start: {e}"));
        self.daemons.push(Daemon {
            pid_file: pid_file.clone(),
            child,
        });
        let started = Instant::now();
        while !pid_file.exists() {
            let exited = self.daemons.last_mut().unwrap().child.try_wait();
            if let Ok(Some(status)) = exited {
                panic!("{command:?} exited: {status}\n{}", self.logs());
            }
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "{command:?} wrote no {} in 10 s\n{}",
                pid_file.display(),
                self.logs()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The daemons' logs and the jobs' output (`.out` files in the folder and in the checks'
    /// folders one level down), to explain a failure.
    pub(super) fn logs(&self) -> String {
        let mut logs = String::new();
        let mut files: Vec<PathBuf> = ["m/munged.log", "slurmctld.log", "slurmd.log"]
            .iter()
            .map(|name| self.dir.join(name))
            .collect();
        let entries = |dir: &Path| -> Vec<PathBuf> {
            std::fs::read_dir(dir)
                .map(|entries| entries.flatten().map(|e| e.path()).collect())
                .unwrap_or_default()
        };
        let mut outs: Vec<PathBuf> = entries(&self.dir)
            .into_iter()
            .flat_map(|p| if p.is_dir() { entries(&p) } else { vec![p] })
            .filter(|p| p.extension().is_some_and(|e| e == "out"))
            .collect();
        outs.sort();
        files.extend(outs);
        for file in files {
            if let Ok(text) = std::fs::read_to_string(&file) {
                let tail: Vec<&str> = text.lines().rev().take(40).collect();
                logs += &format!("--- {} (last lines)\n", file.display());
                for line in tail.into_iter().rev() {
                    logs += line;
                    logs += "\n";
                }
            }
        }
        logs
    }

    /// Submit the batch script `script` with `sbatch --wait`, its jobs working in `chdir`, and
    /// return sbatch's output once every task of the job has ended. A job that fails, or that
    /// has not ended after 5 minutes (a hung task: the job is cancelled when the cluster is
    /// dropped), fails the test with the logs. `what` names the job in the timing line.
    pub(super) fn sbatch(&self, script: &Path, chdir: &Path, what: &str) -> Output {
        let submitted = Instant::now();
        let sbatch = run_for(
            self.client("sbatch")
                .arg("--wait")
                .arg("--chdir")
                .arg(chdir)
                .arg(script),
            Duration::from_secs(300),
        )
        .unwrap_or_else(|| panic!("{what} did not end within 5 minutes\n{}", self.logs()));
        assert!(
            sbatch.status.success(),
            "sbatch --wait {}: {}\n{}{}\n{}",
            script.display(),
            sbatch.status,
            String::from_utf8_lossy(&sbatch.stdout),
            String::from_utf8_lossy(&sbatch.stderr),
            self.logs()
        );
        println!("slurm: {what} ran in {:.1?}", submitted.elapsed());
        sbatch
    }

    /// The pid in `pid_file`, if that process still runs and is ours (names our folder).
    fn daemon_pid(&self, pid_file: &Path) -> Option<u32> {
        let pid: u32 = std::fs::read_to_string(pid_file)
            .ok()?
            .trim()
            .parse()
            .ok()?;
        let ours = command_line(pid).contains(self.dir.to_string_lossy().as_ref());
        (alive(pid) && ours).then_some(pid)
    }

    /// Stop the daemons that match `which`: SIGTERM to the pids in their pid files, then wait
    /// for the children; SIGKILL after 20 s.
    fn stop(&mut self, which: impl Fn(&Path) -> bool) {
        let pids: Vec<u32> = self
            .daemons
            .iter()
            .filter(|d| which(&d.pid_file))
            .filter_map(|d| self.daemon_pid(&d.pid_file))
            .collect();
        for &pid in &pids {
            signal(pid, "TERM");
        }
        let started = Instant::now();
        for daemon in self.daemons.iter_mut().filter(|d| which(&d.pid_file)) {
            loop {
                match daemon.child.try_wait() {
                    Ok(None) if started.elapsed() < Duration::from_secs(20) => {
                        std::thread::sleep(Duration::from_millis(50));
                    }
                    Ok(None) => {
                        for &pid in &pids {
                            signal(pid, "KILL");
                        }
                        let _ = daemon.child.kill();
                        let _ = daemon.child.wait();
                        break;
                    }
                    _ => break,
                }
            }
        }
        gone(&pids, Duration::from_secs(5));
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let munge = self.dir.join("m");
        // A job left by a failure (sbatch timed out): cancel it while the controller runs.
        let controller = self.dir.join("slurmctld.pid");
        if self.daemon_pid(&controller).is_some() {
            let _ = run_for(
                self.client("scancel").args(["--user", "root"]),
                Duration::from_secs(15),
            );
        }
        // Slurm first, munge (which it authenticates with) last.
        self.stop(|f| !f.starts_with(&munge));
        self.stop(|f| f.starts_with(&munge));
        // Anything else of this cluster (a job step after a failure): kill it.
        let rest: Vec<u32> = processes_of(&self.dir).iter().map(|p| p.0).collect();
        for &pid in &rest {
            signal(pid, "KILL");
        }
        gone(&rest, Duration::from_secs(5));
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Start munged, slurmctld and slurmd in `dir` and wait for the node to be idle.
pub(super) fn start_cluster(dir: &Path) -> Cluster {
    let node = String::from_utf8(
        Command::new("hostname")
            .arg("-s")
            .output()
            .expect("hostname runs")
            .stdout,
    )
    .unwrap()
    .trim()
    .to_string();
    assert!(!node.is_empty(), "hostname -s printed nothing");
    let _ = std::fs::remove_dir_all(dir);
    let munge = dir.join("m");
    for sub in [
        dir.to_path_buf(),
        munge.clone(),
        dir.join("state"),
        dir.join("spool"),
    ] {
        std::fs::create_dir_all(&sub).unwrap();
        // munged refuses a folder on its path that not everybody may enter.
        std::fs::set_permissions(&sub, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let mut cluster = Cluster {
        dir: dir.to_path_buf(),
        conf: dir.join("slurm.conf"),
        daemons: Vec::new(),
        node: node.clone(),
    };
    let chown = Command::new("chown")
        .args(["munge:munge", munge.to_str().unwrap()])
        .status()
        .expect("chown runs");
    assert!(chown.success(), "chown munge:munge {}", munge.display());

    let socket = munge.join("sock");
    let (ctld_port, slurmd_port) = free_ports();
    let d = dir.display();
    let conf = format!(
        "ClusterName=shannon{pid}
SlurmctldHost={node}
SlurmUser=root
SlurmdUser=root
SlurmctldPort={ctld_port}
SlurmdPort={slurmd_port}
AuthType=auth/munge
AuthInfo=socket={socket}
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
StateSaveLocation={d}/state
SlurmdSpoolDir={d}/spool
SlurmctldPidFile={d}/slurmctld.pid
SlurmdPidFile={d}/slurmd.pid
SlurmctldLogFile={d}/slurmctld.log
SlurmdLogFile={d}/slurmd.log
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
NodeName={node} CPUs=2 State=UNKNOWN
PartitionName=debug Nodes={node} Default=YES MaxTime=INFINITE State=UP
",
        pid = std::process::id(),
        socket = socket.display(),
    );
    std::fs::write(&cluster.conf, conf).unwrap();

    let mut munged = Command::new(program("runuser"));
    munged
        .args(["-u", "munge", "--"])
        .arg(program("munged"))
        .arg("--foreground")
        .arg(format!("--socket={}", socket.display()))
        .arg(format!("--pid-file={}", munge.join("munged.pid").display()))
        .arg(format!("--log-file={}", munge.join("munged.log").display()))
        .arg(format!("--seed-file={}", munge.join("seed").display()));
    cluster.daemon(munged, munge.join("munged.pid"));
    for name in ["slurmctld", "slurmd"] {
        let mut daemon = Command::new(program(name));
        daemon.arg("-D").arg("-f").arg(&cluster.conf);
        cluster.daemon(daemon, dir.join(format!("{name}.pid")));
    }

    let started = Instant::now();
    loop {
        let state = run_for(
            cluster.client("sinfo").args(["-h", "-o", "%T"]),
            Duration::from_secs(15),
        )
        .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_string());
        if state.as_deref() == Some("idle") {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(45),
            "node {} not idle after 45 s (sinfo: {state:?})\n{}",
            cluster.node,
            cluster.logs()
        );
        std::thread::sleep(Duration::from_millis(300));
    }
    println!("slurm: node idle after {:.1?}", started.elapsed());
    cluster
}
