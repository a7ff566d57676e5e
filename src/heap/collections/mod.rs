//! Collections as their users think of them: `mo:core`'s Map, Set, List, Queue, Stack,
//! PriorityQueue and pure Map, Set, List, Queue, RealTimeQueue, and `mo:base`'s Trie, RBTree tree, List and
//! AssocList, recognized by their type in the stable signature ([`recognize`]) at any depth,
//! and read entry by entry in their own order ([`Entries`]): the natural views' one table.

mod entries;
mod lookup;
mod pop_order;
mod read;
mod realtime_queue;
mod recognize;

pub(crate) use entries::map_slot_parts;
pub use entries::{Entries, EntryWalk, Item, RawEntry, RawNext};
pub use lookup::{compare_keys, lookup};
pub use recognize::{recognize, CollectionKind};

#[cfg(test)]
mod tests;
