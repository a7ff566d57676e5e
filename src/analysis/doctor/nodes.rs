//! [`Nodes`]: the nodes a finding covers, in order: a list, or a bit per node of the graph
//! when they may be many (`duplicate-texts` on a heap of millions of copies: the list would
//! take 4 bytes per copy and a pass to write them, the bits 1/8 byte per node and none).

use super::bits::Bits;

/// Nodes of the graph, in order, each once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Nodes {
    /// As a list, in order.
    List(Vec<u32>),
    /// As the marked nodes of a set.
    Marked(Bits),
}

impl Default for Nodes {
    fn default() -> Nodes {
        Nodes::List(Vec::new())
    }
}

impl FromIterator<u32> for Nodes {
    fn from_iter<I: IntoIterator<Item = u32>>(nodes: I) -> Nodes {
        Nodes::List(nodes.into_iter().collect())
    }
}

impl From<Vec<u32>> for Nodes {
    fn from(nodes: Vec<u32>) -> Nodes {
        Nodes::List(nodes)
    }
}

impl Nodes {
    /// The nodes, in order.
    pub fn iter(&self) -> Box<dyn Iterator<Item = u32> + '_> {
        match self {
            Nodes::List(l) => Box::new(l.iter().copied()),
            Nodes::Marked(b) => Box::new(b.ones()),
        }
    }

    /// The nodes as a list, in order.
    pub fn to_vec(&self) -> Vec<u32> {
        self.iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_forms_list_the_same_nodes() {
        let list = vec![3u32, 64, 65, 130, 999];
        let mut bits = Bits::new(1000);
        for &n in &list {
            bits.set(n);
        }
        let (l, m) = (Nodes::from(list.clone()), Nodes::Marked(bits));
        assert_eq!(l.to_vec(), list);
        assert_eq!(m.to_vec(), list);
        assert_eq!(Nodes::default().to_vec(), Vec::<u32>::new());
    }
}
