//! The graph arena: every backward node lives in one slot table with generational ids.
//!
//! A `NodeRef` is a counted reference (held by a tensor's `grad_fn`, an edge, or a Python
//! handle); a `NodeId` is a plain, uncounted id that can be checked for staleness. When the count
//! of a node falls to zero its slot is freed at once and its generation bumped, so a stale id can
//! be detected but never resolves to the slot's next occupant. Freeing is iterative: dropping the
//! last handle of a million-node chain does not recurse.
use super::node::Node;
use std::cell::{Cell, RefCell};
use std::mem::ManuallyDrop;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId {
    pub index: u32,
    pub generation: u32,
}

struct Slot {
    generation: u32,
    refs: u32,
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
    // A panic while holding the lock cannot leave the table half-updated (every update is a
    // couple of field writes), so a poisoned lock is still usable.
    ARENA.lock().unwrap_or_else(|e| e.into_inner())
}

impl GraphArena {
    fn insert(&mut self, node: Arc<Node>) -> NodeId {
        self.live += 1;
        if let Some(index) = self.free.pop() {
            let slot = &mut self.slots[index as usize];
            slot.refs = 1;
            slot.node = Some(node);
            NodeId {
                index,
                generation: slot.generation,
            }
        } else {
            self.slots.push(Slot {
                generation: 0,
                refs: 1,
                node: Some(node),
            });
            NodeId {
                index: (self.slots.len() - 1) as u32,
                generation: 0,
            }
        }
    }
    fn slot(&mut self, id: NodeId) -> Option<&mut Slot> {
        self.slots
            .get_mut(id.index as usize)
            .filter(|s| s.generation == id.generation && s.node.is_some())
    }
    /// Returns the node when this was its last reference.
    fn decref(&mut self, id: NodeId) -> Option<Arc<Node>> {
        let slot = self.slot(id)?;
        slot.refs -= 1;
        if slot.refs > 0 {
            return None;
        }
        slot.generation = slot.generation.wrapping_add(1);
        let node = slot.node.take();
        self.free.push(id.index);
        self.live -= 1;
        node
    }
}

/// A counted reference to a live node.
pub struct NodeRef {
    id: NodeId,
    // Taken out in `drop`, so the node is destroyed inside the release loop, not after it.
    node: ManuallyDrop<Arc<Node>>,
}

impl NodeRef {
    /// Put a new node in the arena; the returned reference holds its one count.
    pub fn new(node: Node) -> NodeRef {
        let node = Arc::new(node);
        let id = arena().insert(node.clone());
        node.set_id(id);
        NodeRef {
            id,
            node: ManuallyDrop::new(node),
        }
    }
    /// A new counted reference from an id, if the node is still alive.
    pub fn upgrade(id: NodeId) -> Option<NodeRef> {
        let mut a = arena();
        let slot = a.slot(id)?;
        slot.refs += 1;
        let node = slot.node.clone()?;
        Some(NodeRef {
            id,
            node: ManuallyDrop::new(node),
        })
    }
    pub fn id(&self) -> NodeId {
        self.id
    }
    pub fn node(&self) -> &Arc<Node> {
        &self.node
    }
    pub fn ptr_eq(&self, other: &NodeRef) -> bool {
        self.id == other.id
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
        if let Some(s) = arena().slot(self.id) {
            s.refs += 1;
        }
        NodeRef {
            id: self.id,
            node: ManuallyDrop::new(Arc::clone(&self.node)),
        }
    }
}

thread_local! {
    static PENDING: RefCell<Vec<(NodeId, Arc<Node>)>> = const { RefCell::new(Vec::new()) };
    static DRAINING: Cell<bool> = const { Cell::new(false) };
}

impl Drop for NodeRef {
    fn drop(&mut self) {
        let id = self.id;
        // SAFETY: `node` is never used again after this.
        let node = unsafe { ManuallyDrop::take(&mut self.node) };
        // Releasing a node drops its edges and saved tensors, which release more nodes: queue
        // them and let the outermost drop run the loop, so depth stays constant.
        let mut item = Some((id, node));
        let queued = PENDING
            .try_with(|p| {
                if let Ok(mut q) = p.try_borrow_mut() {
                    q.push(item.take().expect("pushed once"));
                }
            })
            .is_ok()
            && item.is_none();
        if !queued {
            // Thread-local storage is being torn down: release directly.
            let freed = arena().decref(id);
            drop(freed);
            drop(item);
            return;
        }
        if DRAINING.with(|d| d.replace(true)) {
            return;
        }
        loop {
            let next = PENDING.with(|p| p.borrow_mut().pop());
            let Some((next, arc)) = next else { break };
            let freed = arena().decref(next);
            drop(freed);
            drop(arc);
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
    arena().slot(id).is_some()
}
