//! The graph arena: every backward node lives in one slot table with generational ids.
//!
//! A `NodeRef` is a counted reference (held by a tensor's `grad_fn`, an edge, or a Python
//! handle); a `NodeId` is a plain, uncounted id that can be checked for staleness. The count
//! lives in the node (an atomic, so taking and dropping references never locks); when it falls
//! to zero the node's slot is freed at once and its generation bumped, so a stale id can be
//! detected but never resolves to the slot's next occupant. Freeing is iterative: dropping the
//! last handle of a million-node chain does not recurse.
use super::node::Node;
use std::cell::{Cell, RefCell};
use std::mem::ManuallyDrop;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId {
    pub index: u32,
    pub generation: u32,
}

struct Slot {
    generation: u32,
    node: Option<Arc<Node>>,
}

#[derive(Default)]
pub struct GraphArena {
    slots: Vec<Slot>,
    free: Vec<u32>,
    live: usize,
}

static ARENA: Mutex<GraphArena> = Mutex::new(GraphArena {
    slots: Vec::new(),
    free: Vec::new(),
    live: 0,
});
static LIVE_TENSORS: AtomicUsize = AtomicUsize::new(0);

fn arena() -> MutexGuard<'static, GraphArena> {
    // Every update is a couple of field writes, so a poisoned lock is still consistent.
    ARENA.lock().unwrap_or_else(|e| e.into_inner())
}

impl GraphArena {
    fn insert(&mut self, node: Arc<Node>) -> NodeId {
        self.live += 1;
        if let Some(index) = self.free.pop() {
            let slot = &mut self.slots[index as usize];
            slot.node = Some(node);
            NodeId {
                index,
                generation: slot.generation,
            }
        } else {
            self.slots.push(Slot {
                generation: 0,
                node: Some(node),
            });
            NodeId {
                index: (self.slots.len() - 1) as u32,
                generation: 0,
            }
        }
    }
    fn get(&self, id: NodeId) -> Option<&Arc<Node>> {
        self.slots
            .get(id.index as usize)
            .filter(|s| s.generation == id.generation)
            .and_then(|s| s.node.as_ref())
    }
    /// Free the slot of a node whose count reached zero.
    fn remove(&mut self, id: NodeId) -> Option<Arc<Node>> {
        let slot = self.slots.get_mut(id.index as usize)?;
        if slot.generation != id.generation {
            return None;
        }
        let node = slot.node.take()?;
        slot.generation = slot.generation.wrapping_add(1);
        self.free.push(id.index);
        self.live -= 1;
        Some(node)
    }
}

/// A counted reference to a live node.
pub struct NodeRef {
    // Taken out in `drop`, so the node is destroyed inside the release loop, not after it.
    node: ManuallyDrop<Arc<Node>>,
}

impl NodeRef {
    /// Put a new node in the arena; the returned reference holds its one count.
    pub fn new(node: Node) -> NodeRef {
        let node = Arc::new(node);
        node.refs.store(1, Ordering::Relaxed);
        let id = arena().insert(node.clone());
        node.set_id(id);
        NodeRef {
            node: ManuallyDrop::new(node),
        }
    }
    /// A new counted reference from an id, if the node is still alive.
    pub fn upgrade(id: NodeId) -> Option<NodeRef> {
        let node = arena().get(id)?.clone();
        NodeRef::from_arc(node)
    }
    /// A new counted reference from an uncounted pointer, if the node is still alive.
    pub fn upgrade_weak(w: &Weak<Node>) -> Option<NodeRef> {
        NodeRef::from_arc(w.upgrade()?)
    }
    fn from_arc(node: Arc<Node>) -> Option<NodeRef> {
        let mut n = node.refs.load(Ordering::Acquire);
        loop {
            if n == 0 {
                return None;
            }
            match node
                .refs
                .compare_exchange_weak(n, n + 1, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => {
                    return Some(NodeRef {
                        node: ManuallyDrop::new(node),
                    })
                }
                Err(cur) => n = cur,
            }
        }
    }
    pub fn id(&self) -> NodeId {
        self.node.id()
    }
    pub fn node(&self) -> &Arc<Node> {
        &self.node
    }
    pub fn downgrade(&self) -> Weak<Node> {
        Arc::downgrade(&self.node)
    }
    pub fn ptr_eq(&self, other: &NodeRef) -> bool {
        Arc::ptr_eq(&self.node, &other.node)
    }
}

impl std::ops::Deref for NodeRef {
    type Target = Node;
    fn deref(&self) -> &Node {
        &self.node
    }
}

impl Clone for NodeRef {
    fn clone(&self) -> NodeRef {
        self.node.refs.fetch_add(1, Ordering::Relaxed);
        NodeRef {
            node: ManuallyDrop::new(Arc::clone(&self.node)),
        }
    }
}

thread_local! {
    static PENDING: RefCell<Vec<Arc<Node>>> = const { RefCell::new(Vec::new()) };
    static DRAINING: Cell<bool> = const { Cell::new(false) };
}

fn release(node: Arc<Node>) {
    let freed = arena().remove(node.id());
    drop(freed);
    drop(node);
}

impl Drop for NodeRef {
    fn drop(&mut self) {
        // SAFETY: `node` is never used again after this.
        let node = unsafe { ManuallyDrop::take(&mut self.node) };
        if node.refs.fetch_sub(1, Ordering::AcqRel) != 1 {
            return;
        }
        // Releasing a node drops its edges and saved tensors, which release more nodes: queue
        // them and let the outermost drop run the loop, so depth stays constant.
        let mut item = Some(node);
        let _ = PENDING.try_with(|p| {
            if let Ok(mut q) = p.try_borrow_mut() {
                q.push(item.take().expect("pushed once"));
            }
        });
        if let Some(node) = item {
            // Thread-local storage is being torn down: release directly.
            release(node);
            return;
        }
        if DRAINING.try_with(|d| d.replace(true)).unwrap_or(true) {
            return;
        }
        loop {
            let next = PENDING.with(|p| p.borrow_mut().pop());
            let Some(node) = next else { break };
            release(node);
        }
        DRAINING.with(|d| d.set(false));
    }
}

pub fn tensor_created() {
    LIVE_TENSORS.fetch_add(1, Ordering::Relaxed);
}
pub fn tensor_dropped() {
    LIVE_TENSORS.fetch_sub(1, Ordering::Relaxed);
}

/// Live backward nodes and live tensor records.
pub fn arena_stats() -> (usize, usize) {
    (arena().live, LIVE_TENSORS.load(Ordering::Relaxed))
}

/// Is the node behind `id` still alive?
pub fn is_alive(id: NodeId) -> bool {
    arena()
        .get(id)
        .is_some_and(|n| n.refs.load(Ordering::Acquire) > 0)
}
