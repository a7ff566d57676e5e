//! A fixed pool of worker threads: the FUSE session loop hands each request to it and
//! the worker replies (fuser dispatches on one thread; replies are `Send`).

use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

type Job = Box<dyn FnOnce() + Send + 'static>;

/// Worker threads running submitted jobs; dropping the pool waits for queued jobs.
pub struct WorkerPool {
    sender: Option<SyncSender<Job>>,
    workers: Vec<JoinHandle<()>>,
}

impl WorkerPool {
    /// A pool of `threads` workers (at least one) with a bounded queue.
    pub fn new(threads: usize) -> std::io::Result<WorkerPool> {
        let threads = threads.max(1);
        let (sender, receiver) = sync_channel::<Job>(threads * 64);
        let receiver = Arc::new(Mutex::new(receiver));
        let mut workers = Vec::with_capacity(threads);
        for i in 0..threads {
            let receiver = receiver.clone();
            let worker = std::thread::Builder::new()
                .name(format!("mo-mem-fuse-{i}"))
                .spawn(move || work(&receiver))?;
            workers.push(worker);
        }
        Ok(WorkerPool {
            sender: Some(sender),
            workers,
        })
    }

    /// Runs `job` on a worker (runs it here if the pool is shutting down).
    pub fn spawn(&self, job: impl FnOnce() + Send + 'static) {
        let job: Job = Box::new(job);
        match &self.sender {
            Some(sender) => {
                if let Err(returned) = sender.send(job) {
                    (returned.0)();
                }
            }
            None => job(),
        }
    }
}

fn work(receiver: &Mutex<Receiver<Job>>) {
    loop {
        let job = {
            let receiver = receiver.lock().unwrap_or_else(|p| p.into_inner());
            receiver.recv()
        };
        match job {
            Ok(job) => job(),
            Err(_) => return,
        }
    }
}

impl Drop for WorkerPool {
    fn drop(&mut self) {
        self.sender.take();
        for worker in self.workers.drain(..) {
            let _ = worker.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn runs_every_job_concurrently() {
        let done = Arc::new(AtomicUsize::new(0));
        let barrier = Arc::new(std::sync::Barrier::new(4));
        {
            let pool = WorkerPool::new(4).unwrap();
            for _ in 0..4 {
                let (done, barrier) = (done.clone(), barrier.clone());
                pool.spawn(move || {
                    barrier.wait(); // deadlocks unless 4 jobs run at once
                    done.fetch_add(1, Ordering::SeqCst);
                });
            }
        }
        assert_eq!(done.load(Ordering::SeqCst), 4);
    }
}
