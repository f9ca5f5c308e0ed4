/**
 * What Icechunk's read-compatibility test (test_can_read_old.py beside the fixture
 * repositories) expects of test-repo-v1 and test-repo-v2: histories, attributes, the virtual
 * chunk's location and the values of each snapshot. Shared by the Node tests here and the
 * Chromium test in @zarr/all, so both check against one statement of it.
 */

export const MAIN_HISTORY = ["set virtual chunk", "fill data", "empty structure", "Repository initialized"];
export const BRANCH_HISTORY = ["some more structure", "delete a chunk", ...MAIN_HISTORY];
export const GROUP_ATTRS = { this: "is a nice group", icechunk: 1, size: 42.0 };
export const ARRAY_ATTRS = { this: "is a nice array", icechunk: 1, size: 42.0 };
export const VIRTUAL_LOCATION = "s3://testbucket/can_read_old/chunk-1";
/** The container the virtual chunk needs. */
export const VIRTUAL_CONTAINER = "s3://testbucket/";

/**
 * The values of group1/small_chunks and of every element of group1/big_chunks at each
 * snapshot, by its commit message ("Repository initialized" has no root group at all).
 */
export const SNAPSHOT_VALUES: Record<string, { small: number[]; big: number }> = {
  "set virtual chunk": { small: [84, 84, 84, 84, 84], big: 42 },
  "fill data": { small: [84, 84, 84, 84, 84], big: 42 },
  "empty structure": { small: [8, 8, 8, 8, 8], big: Number.NaN },
  "delete a chunk": { small: [84, 84, 84, 84, 8], big: 42 },
  "some more structure": { small: [84, 84, 84, 84, 8], big: 42 },
};

/** The branches and tags of both repositories (the tag "deleted" was deleted). */
export const BRANCHES = ["main", "my-branch"];
export const TAGS = ["it also works!", "it works!"];
