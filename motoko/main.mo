/// mo-mem's canister-hosted snapshot protocol (`mo-mem ... --protocol canister`).
///
/// The original mo-mem design: the canister copies its own main (Wasm) memory into a stable
/// Region and serves the copy by query, so a snapshot is taken and read without the management
/// canister's snapshot API. Add these declarations to the actor you want to inspect.
///
/// NOTE: this needs a Motoko compiler with the primitive `Prim.regionCopyMainMemory : Region -> Nat64`
/// (grow the region to fit, copy the whole main memory into it from offset 0, return the number of
/// bytes copied: a whole number of 64 KiB pages). No released moc has it (the pinned moc 4.10.0
/// does not); with such a compiler this file builds as is.
///
/// Access is limited to the canister's controllers: every method traps for anyone else.
///
/// Interface (mo-mem's `src/ic/hosted.rs` speaks it):
///   mo_mem_info   : () -> (vec HostedSnapshot) query
///   mo_mem_create : () -> (HostedSnapshot)            // fails at 10 snapshots
///   mo_mem_update : () -> (HostedSnapshot)            // replaces the latest, new id
///   mo_mem_read   : (id : nat, offset : nat64, size : nat64) -> (blob) query   // size <= 2_000_000
///   mo_mem_delete : (id : nat) -> ()
///   HostedSnapshot = record { id : nat; taken_at : int; size : nat64 }

import Prim "mo:⛔";
import Array "mo:core/Array";
import Principal "mo:core/Principal";
import Region "mo:core/Region";
import Runtime "mo:core/Runtime";
import Time "mo:core/Time";

persistent actor MoMemHosted {

  public type HostedSnapshot = { id : Nat; taken_at : Int; size : Nat64 };

  let maxSnapshots = 10;
  let maxSlice : Nat64 = 2_000_000;

  var snapshots : [(HostedSnapshot, Region.Region)] = [];
  var nextId = 0;

  func onlyControllers(caller : Principal) {
    if (not Principal.isController(caller)) {
      Runtime.trap("mo-mem: only controllers of this canister may read or take its memory snapshots");
    };
  };

  func take() : HostedSnapshot {
    let region = Region.new();
    let size = Prim.regionCopyMainMemory(region); // needs the compiler primitive, see above
    let info = { id = nextId; taken_at = Time.now(); size };
    nextId += 1;
    snapshots := Array.concat(snapshots, [(info, region)]);
    info;
  };

  public shared query ({ caller }) func mo_mem_info() : async [HostedSnapshot] {
    onlyControllers(caller);
    Array.map<(HostedSnapshot, Region.Region), HostedSnapshot>(snapshots, func((s, _)) = s);
  };

  public shared ({ caller }) func mo_mem_create() : async HostedSnapshot {
    onlyControllers(caller);
    if (snapshots.size() >= maxSnapshots) {
      Runtime.trap("mo-mem: the canister already holds the maximum number of snapshots (10); use mo_mem_update or mo_mem_delete");
    };
    take();
  };

  public shared ({ caller }) func mo_mem_update() : async HostedSnapshot {
    onlyControllers(caller);
    if (snapshots.size() == 0) {
      Runtime.trap("mo-mem: no snapshot to replace; use mo_mem_create");
    };
    // Regions cannot be freed: the replaced snapshot's region is reused by the next copy.
    let (_, region) = snapshots[snapshots.size() - 1];
    snapshots := Array.sliceToArray(snapshots, 0, snapshots.size() - 1);
    let size = Prim.regionCopyMainMemory(region);
    let info = { id = nextId; taken_at = Time.now(); size };
    nextId += 1;
    snapshots := Array.concat(snapshots, [(info, region)]);
    info;
  };

  public shared query ({ caller }) func mo_mem_read(id : Nat, offset : Nat64, size : Nat64) : async Blob {
    onlyControllers(caller);
    if (size > maxSlice) {
      Runtime.trap("mo-mem: requested slice too large (at most 2000000 bytes)");
    };
    for ((s, region) in snapshots.vals()) {
      if (s.id == id) {
        if (offset > s.size or size > s.size - offset) {
          Runtime.trap("mo-mem: slice out of bounds");
        };
        return Region.loadBlob(region, offset, Prim.nat64ToNat(size));
      };
    };
    Runtime.trap("mo-mem: no such snapshot");
  };

  public shared ({ caller }) func mo_mem_delete(id : Nat) : async () {
    onlyControllers(caller);
    snapshots := Array.filter<(HostedSnapshot, Region.Region)>(snapshots, func((s, _)) = s.id != id);
  };
};
