import { zarrVitestConfig } from "../../vitest.shared.mjs";
export default zarrVitestConfig();
