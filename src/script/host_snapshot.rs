//! The snapshot behind a session's host values: the opened heap and its stable signature,
//! shared (read-only) by every session over the same snapshot.

use super::host::HostError;
use super::host_heap::HeapHost;
use super::host_image::ImageHost;
use super::host_lazy::EAGER_NODES;
use super::host_vars::VarsHost;
use super::session::Session;
use crate::analysis::OpenedHeap;
use crate::heap::types::StableSignature;
use crate::heap::value::Decoder;
use std::rc::Rc;
use std::sync::Arc;

/// One opened snapshot, read by the host values `image`, `heap` and `vars`: the heap opened
/// once ([`OpenedHeap`]) and shared with every other reader of the snapshot.
pub type SnapshotContext = OpenedHeap;

/// The stable signature of `ctx`, or the reason it is missing as a host error.
pub fn signature(ctx: &SnapshotContext) -> Result<&StableSignature, HostError> {
    ctx.signature()
        .map_err(|e| HostError::data("no stable variables: ", e.clone()))
}

/// A decoder over `ctx`'s signature sharing its label map, or why there is none.
pub fn decoder(ctx: &SnapshotContext) -> Result<Decoder<'_>, HostError> {
    ctx.decoder()
        .map_err(|e| HostError::data("no stable variables: ", e.clone()))
}

/// Binds `image`, `heap` and `vars` over `ctx` in `session`, makes its `debug_show` print
/// `Float`s like a compiled canister ([`super::host_show::canister_show`]) and its JSON show
/// collections as their natural views ([`super::json::to_natural_json`]).
pub fn install(session: &mut Session, ctx: Arc<SnapshotContext>) {
    install_with(session, ctx, EAGER_NODES);
}

/// [`install`], reading values of more than `eager_nodes` nodes lazily.
pub fn install_with(session: &mut Session, ctx: Arc<SnapshotContext>, eager_nodes: u64) {
    let vars = Rc::new(VarsHost::with_eager_nodes(ctx.clone(), eager_nodes));
    let (book, json_ctx) = (vars.book.clone(), ctx.clone());
    session.set_json(Some(Rc::new(move |v: &super::value::Value| {
        super::json::to_natural_json(v, &book, &json_ctx)
    })));
    session.define_host("image", Rc::new(ImageHost::new(ctx.clone())));
    session.define_host("heap", Rc::new(HeapHost::new(ctx, vars.clone())));
    session.define_host("vars", vars);
    session.set_floats(crate::heap::render::FloatStyle::Compiled);
}
