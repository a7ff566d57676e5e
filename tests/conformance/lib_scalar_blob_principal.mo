// mo:core/Blob and mo:core/Principal: comparisons, Blob.hash (CRC-32), the principal classes
// (by the last byte), and the ICP ledger account identifier (SHA-224 after its CRC-32).
import Blob "mo:core/Blob";
import Principal "mo:core/Principal";
import Debug "mo:core/Debug";
func show(what : Text, t : Text) { Debug.print(what # " " # t) };
let b1 : Blob = "\00\01\02";
let b2 : Blob = "\00\02";
show("blob", debug_show (Blob.empty(), Blob.isEmpty(Blob.empty()), Blob.isEmpty(b1), Blob.less(b1, b2), Blob.lessOrEqual(b2, b2), Blob.greater(b1, b2), Blob.greaterOrEqual(b1, b2), Blob.notEqual(b1, b2)));
show("blobHash", debug_show (Blob.hash(b1), Blob.hash(""), Blob.hash("hello world")));
let va = Blob.toVarArray(b1);
va[0] := 9;
show("blobVar", debug_show (Blob.fromVarArray(va), va.size()));
let p1 = Principal.fromText("aaaaa-aa");
let p2 = Principal.fromText("2vxsx-fae");
let c = Principal.fromText("rrkah-fqaaa-aaaaa-aaaaq-cai");
let u = Principal.fromBlob("\de\ad\be\ef\00\01\02\03\04\05\06\07\08\09\0a\0b\0c\0d\0e\0f\10\11\12\13\14\15\16\17\02");
let r = Principal.fromBlob("\00\00\00\00\00\00\00\07\7f");
show("u", debug_show (u, r));
show("principal", debug_show (Principal.less(p1, p2), Principal.lessOrEqual(p1, p1), Principal.greater(p1, p2), Principal.greaterOrEqual(p2, p1), Principal.notEqual(p1, p2)));
show("hash", debug_show (Principal.hash(p1), Principal.hash(p2), Principal.hash(c), Principal.hash(u)));
for (p in [p1, p2, c, u, r].vals()) {
  show("classes", debug_show (Principal.isCanister(p), Principal.isSelfAuthenticating(p), Principal.isReserved(p)));
  show("ledger", debug_show (Principal.toLedgerAccount(p, null)));
};
show("ledgerSub", debug_show (Principal.toLedgerAccount(u, ?"\01\02\03"), Principal.toLedgerAccount(c, ?b1)));
