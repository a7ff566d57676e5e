// a binary min-heap class over a growing mutable array
import Debug "mo:core/Debug";
import VarArray "mo:core/VarArray";

class MinHeap() {
  var data : [var Int] = [var];
  public var size = 0;
  func grow() {
    let bigger = VarArray.repeat<Int>(0, 2 * data.size() + 1);
    for (i in data.keys()) { bigger[i] := data[i] };
    data := bigger;
  };
  public func push(x : Int) {
    if (size == data.size()) grow();
    var i = size;
    data[i] := x;
    size += 1;
    while (i > 0 and data[(i - 1) / 2] > data[i]) {
      let p = (i - 1) / 2;
      let t = data[p]; data[p] := data[i]; data[i] := t;
      i := p;
    };
  };
  public func pop() : ?Int {
    if (size == 0) return null;
    let top = data[0];
    size -= 1;
    data[0] := data[size];
    var i = 0;
    label sift loop {
      let l = 2 * i + 1;
      let r = l + 1;
      var m = i;
      if (l < size and data[l] < data[m]) m := l;
      if (r < size and data[r] < data[m]) m := r;
      if (m == i) break sift;
      let t = data[m]; data[m] := data[i]; data[i] := t;
      i := m;
    };
    ?top
  };
};

let h = MinHeap();
for (x in [5, -1, 8, 3, 0, 3, 12].vals()) { h.push(x) };
var out : [Int] = [];
label drain loop { switch (h.pop()) { case (?x) out := [x]; case null break drain }; Debug.print(debug_show (out, h.size)) };
