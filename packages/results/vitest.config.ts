import { packageTestConfig } from "../../vitest.base.js";

export default packageTestConfig();
