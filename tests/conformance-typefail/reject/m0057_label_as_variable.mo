label done {
  break done;
};
done
